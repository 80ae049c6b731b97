import type { ModelResponse } from '../../machines/types.js';

/** Deeper tool inputs are not kept: no tool needs them, and JSON.stringify overflows the stack near 4,000 levels. */
export const MAX_INPUT_DEPTH = 64;

// Stand-ins for inputs that were too deep; the registry's validation turns them into TOOL_INPUT_INVALID.
const tooDeep = new WeakSet<object>();

/** Nesting depth of a JSON value, counted without recursion, stopping once past `limit`. */
export function depthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Replaces tool inputs nested deeper than MAX_INPUT_DEPTH with an empty stand-in before
 * anything serialises them (trace, transcript, the next request), so such a call comes back to
 * the model as an invalid input instead of crashing the task.
 * @example const response = limitInputDepth(await model.createMessage(request));
 */
export function limitInputDepth(response: ModelResponse): ModelResponse {
  if (!response.content.some((block) => block.type === 'tool_use' && depthExceeds(block.input, MAX_INPUT_DEPTH))) return response;
  const content = response.content.map((block) => {
    if (block.type !== 'tool_use' || !depthExceeds(block.input, MAX_INPUT_DEPTH)) return block;
    const standIn = {};
    tooDeep.add(standIn);
    return { ...block, input: standIn };
  });
  return { ...response, content };
}

/** Why this input cannot be used, or null: it was too deep when it arrived, or is too deep now. */
export function inputDepthProblem(toolName: string, input: unknown): string | null {
  const replaced = typeof input === 'object' && input !== null && tooDeep.has(input);
  if (!replaced && !depthExceeds(input, MAX_INPUT_DEPTH)) return null;
  return `The input of ${toolName} was nested more than ${MAX_INPUT_DEPTH} levels deep, so it was not kept or run. Send a flat input that matches the tool's schema.`;
}
