import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ToolCall, ToolResult, Validation } from '../../machines/types.js';
import type { ToolSpec } from '../model/types.js';
import type { Tool } from './types.js';

/**
 * The tools a task may use: their specs for the model, input validation, execution.
 * Schemas are compiled once, on first use, with every error reported.
 * @example const registry = new ToolRegistry(builtinTools()); registry.validate(call);
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly validators = new Map<string, ValidateFunction>();
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
    const validateInput = this.validator(tool);
    if (validateInput(call.input)) return { ok: true };
    return {
      ok: false,
      error: { code: 'TOOL_INPUT_INVALID', message: `Invalid input for ${tool.name}: ${describeErrors(validateInput.errors ?? [])}` },
    };
  }

  /** Runs a validated call. Expected failures come back as results; unexpected ones throw. */
  async execute(call: ToolCall, options: { signal: AbortSignal; workspace: string }): Promise<ToolResult> {
    const tool = this.tools.get(call.name);
    if (!tool) throw new Error(`tool ${call.name} vanished between validation and execution`);
    return tool.execute({ input: call.input, signal: options.signal, workspace: options.workspace });
  }

  private validator(tool: Tool): ValidateFunction {
    let validateInput = this.validators.get(tool.name);
    if (!validateInput) {
      this.ajv ??= new Ajv({ allErrors: true, strict: false });
      validateInput = this.ajv.compile(tool.inputSchema);
      this.validators.set(tool.name, validateInput);
    }
    return validateInput;
  }
}

/** "input.path: must be string; input: must have required property 'content'" */
export function describeErrors(errors: readonly ErrorObject[]): string {
  return errors
    .map((e) => {
      const field = e.instancePath ? `input${e.instancePath.replaceAll('/', '.')}` : 'input';
      if (e.keyword === 'additionalProperties') {
        return `${field}: unexpected property "${String(e.params.additionalProperty)}"`;
      }
      return `${field}: ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}
