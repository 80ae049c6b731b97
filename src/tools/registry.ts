import { createRequire } from 'node:module';
import type { Ajv, ErrorObject } from 'ajv';
import type { ToolCall, ToolResult, Validation } from '../../machines/types.js';
import type { ToolSpec } from '../model/types.js';
import { type InputValidator, precompiledValidator } from './builtin/input-validators.js';
import { capResult } from './truncate.js';
import type { Tool, ToolContext } from './types.js';
import { inputDepthProblem } from './input-depth.js';
import { VALIDATOR_OPTIONS } from './validator-options.js';

// ajv is ~30 ms of CommonJS to load: required on the first validation of a tool that is not a
// built-in (those were compiled ahead of time), not at start-up, so `--version`, the first model
// request and a session with only built-in tools do not wait for it.
const require = createRequire(import.meta.url);
const loadAjv = (): typeof Ajv => (require('ajv') as typeof import('ajv')).Ajv;

/**
 * The tools a task may use: their specs for the model, input validation, execution.
 * Built-in tools use validators compiled at build time (npm run validators); any other schema is
 * compiled by ajv once, on first use. Either way every error is reported.
 * @example const registry = new ToolRegistry(builtinTools()); registry.validate(call);
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly validators = new Map<string, InputValidator>();
  private ajv: Ajv | undefined;

  constructor(tools: readonly Tool[]) {
    for (const tool of tools) this.tools.set(tool.name, tool);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  specs(): ToolSpec[] {
    return [...this.tools.values()].map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  }

  validate(call: ToolCall): Validation {
    const tool = this.tools.get(call.name);
    if (!tool) {
      return {
        ok: false,
        error: {
          code: 'TOOL_NOT_FOUND',
          message: `No tool named "${call.name}". Available tools: ${this.names().join(', ')}.`,
        },
      };
    }
    const tooDeep = inputDepthProblem(tool.name, call.input);
    if (tooDeep) return { ok: false, error: { code: 'TOOL_INPUT_INVALID', message: tooDeep } };
    const validateInput = this.validator(tool);
    if (validateInput(call.input)) return { ok: true };
    return {
      ok: false,
      error: { code: 'TOOL_INPUT_INVALID', message: `Invalid input for ${tool.name}: ${describeErrors(validateInput.errors ?? [])}` },
    };
  }

  /**
   * Runs a validated call. Expected failures come back as results; unexpected ones throw.
   * Every result is capped at MAX_RESULT_CHARS, whatever the tool, so one call cannot flood the context.
   */
  async execute(call: ToolCall, options: Omit<ToolContext, 'input'>): Promise<ToolResult> {
    const tool = this.tools.get(call.name);
    if (!tool) throw new Error(`tool ${call.name} vanished between validation and execution`);
    const { signal, workspace, checkpoints, readGate, env } = options;
    return capResult(
      await tool.execute({
        input: call.input,
        signal,
        workspace,
        ...(checkpoints ? { checkpoints } : {}),
        ...(readGate ? { readGate } : {}),
        ...(env ? { env } : {}),
      }),
    );
  }

  private validator(tool: Tool): InputValidator {
    let validateInput = this.validators.get(tool.name);
    if (!validateInput) {
      validateInput = precompiledValidator(tool);
      if (!validateInput) {
        // A schema that cannot compile throws here (VALIDATOR_OPTIONS skips the meta-schema check).
        this.ajv ??= new (loadAjv())(VALIDATOR_OPTIONS);
        validateInput = this.ajv.compile(tool.inputSchema);
      }
      this.validators.set(tool.name, validateInput);
    }
    return validateInput;
  }
}

/**
 * One line the model can act on, naming each field and what was expected:
 * `input.path: must be string (got number); input.content: required property is missing`.
 * With ajv's `verbose` option the offending value and allowed properties are quoted too.
 */
export function describeErrors(errors: readonly ErrorObject[]): string {
  return errors
    .map((e) => {
      const field = e.instancePath ? `input${e.instancePath.replaceAll('/', '.')}` : 'input';
      switch (e.keyword) {
        case 'required':
          return `${field}.${String(e.params.missingProperty)}: required property is missing`;
        case 'additionalProperties': {
          const allowed = allowedProperties(e.parentSchema);
          return `${field}: unexpected property "${String(e.params.additionalProperty)}"${allowed ? ` (allowed: ${allowed})` : ''}`;
        }
        case 'type':
          return `${field}: must be ${String(e.params.type)} (got ${describeValue(e.data)})`;
        default:
          return `${field}: ${e.message ?? 'is invalid'}${'data' in e ? ` (got ${describeValue(e.data)})` : ''}`;
      }
    })
    .join('; ');
}

function allowedProperties(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || !('properties' in schema)) return undefined;
  const properties = (schema as { properties: unknown }).properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties).join(', ') : undefined;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  return `${typeof value} ${String(value)}`;
}
