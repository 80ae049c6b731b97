import type { ToolResult } from '../../machines/types.js';

/** A successful tool result. */
export function ok(content: string): ToolResult {
  return { content, isError: false };
}

/** An expected failure, in words the model can act on. */
export function fail(content: string): ToolResult {
  return { content, isError: true };
}
