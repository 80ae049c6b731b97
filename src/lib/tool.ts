import type { ToolResult } from '../../machines/types.js';
import type { Tool } from '../tools/types.js';
import { UsageError } from '../errors/xagent-error.js';

/** What a custom tool's `execute` gets besides its input. */
export interface ToolExecuteContext {
  /** Aborted when the task stops (abort, timeout): stop work and return. */
  signal: AbortSignal;
  /** Absolute, real path of the run's workspace (`cwd` of query()). */
  cwd: string;
}

/** A custom tool's answer in full: `isError: true` tells the model the call failed. */
export interface ToolOutput {
  content: string;
  isError?: boolean;
}

export interface ToolDefinition<Input = Record<string, unknown>> {
  /** What the model calls it: letters, digits, `_` and `-`, at most 64 (the API's rule); not a built-in's name. */
  name: string;
  /** What the model reads to decide when to call it. */
  description: string;
  /** JSON Schema of the input (`type: 'object'`); every call is validated against it (ajv) before it runs. */
  inputSchema: Record<string, unknown>;
  /**
   * true: it only reads, so the permission layer allows it by default (like read_file).
   * Default false: each call asks (your `canUseTool`), unless an allow rule or the mode allows it.
   */
  readOnly?: boolean;
  /** Runs one validated call in your process. A thrown error becomes an is_error result the model reads. */
  execute(input: Input, context: ToolExecuteContext): string | ToolOutput | Promise<string | ToolOutput>;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a custom tool for query()'s `tools`. The input reaches `execute` only once it matches
 * `inputSchema`. What execute throws, or a return value that is neither a string nor
 * `{ content, isError }`, becomes an is_error result the model can act on: the task goes on.
 * @example
 * const rollDice = tool({
 *   name: 'roll_dice',
 *   description: 'Roll a die with the given number of sides.',
 *   inputSchema: { type: 'object', properties: { sides: { type: 'integer', minimum: 2 } }, required: ['sides'] },
 *   readOnly: true,
 *   execute: ({ sides }) => String(1 + Math.floor(Math.random() * Number(sides))),
 * });
 */
export function tool<Input = Record<string, unknown>>(definition: ToolDefinition<Input>): Tool {
  const { name, description, inputSchema, readOnly = false, execute } = definition ?? ({} as ToolDefinition<Input>);
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new UsageError(`tool name ${JSON.stringify(name)} must be 1 to 64 letters, digits, "_" or "-" (the API's rule)`);
  }
  if (typeof description !== 'string' || description.trim() === '')
    throw new UsageError(`tool ${name}: description must be a non-empty string`);
  if (typeof inputSchema !== 'object' || inputSchema === null || inputSchema.type !== 'object') {
    throw new UsageError(`tool ${name}: inputSchema must be a JSON Schema object with type: 'object' (the API's rule)`);
  }
  if (typeof execute !== 'function') throw new UsageError(`tool ${name}: execute must be a function`);
  return {
    name,
    description,
    inputSchema,
    readOnly: readOnly === true,
    async execute({ input, signal, workspace }): Promise<ToolResult> {
      try {
        return resultOf(name, await execute(input as Input, { signal, cwd: workspace }));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { content: `${name} failed: ${message}`, isError: true };
      }
    },
  };
}

/** A string or `{ content, isError }`; anything else is the tool's bug, told to the model as an error. */
function resultOf(name: string, output: unknown): ToolResult {
  if (typeof output === 'string') return { content: output, isError: false };
  if (typeof output === 'object' && output !== null && typeof (output as ToolOutput).content === 'string') {
    return { content: (output as ToolOutput).content, isError: (output as ToolOutput).isError === true };
  }
  return {
    content: `${name} returned ${output === null ? 'null' : typeof output} instead of a string or { content, isError }`,
    isError: true,
  };
}
