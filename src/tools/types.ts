import type { ToolResult } from '../../machines/types.js';

export interface ToolContext {
  input: unknown;
  signal: AbortSignal;
  /** Absolute, real path of the workspace root. File tools never reach outside it. */
  workspace: string;
}

/**
 * A built-in tool. Expected failures (missing file, no match, non-zero exit) are returned as
 * `{ isError: true }` results the model can act on; only unexpected failures throw.
 */
export interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
  execute(context: ToolContext): Promise<ToolResult>;
}
