import type { ModelResponse } from '../../machines/types.js';

/** Deeper tool inputs are not kept: no tool needs them, and JSON.stringify overflows the stack near 4,000 levels. */
export const MAX_INPUT_DEPTH = 64;

/**
 * Larger tool inputs are not kept either (issue 31, I1): one of a million characters would be sent
 * back with every later request of the session, past the context window each time, so the session
 * could never be continued. A model's own output stays far below this (its max_tokens).
 */
export const MAX_INPUT_CHARS = 256_000;

// Stand-ins for inputs that were too deep or too large; the registry's validation turns them into TOOL_INPUT_INVALID.
const tooDeep = new WeakSet<object>();
const tooLarge = new WeakMap<object, number>();

/** The characters of a JSON value's strings and keys, counted without recursion, stopping past `limit`. */
export function inputChars(value: unknown, limit: number): number {
  const stack: unknown[] = [value];
  let chars = 0;
  while (stack.length > 0 && chars <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') chars += item.length;
    else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        chars += key.length;
        stack.push(child);
      }
    } else chars += 4;
  }
  return chars;
}

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
 * Replaces tool inputs nested deeper than MAX_INPUT_DEPTH, or larger than MAX_INPUT_CHARS, with an
 * empty stand-in before anything serialises them (trace, transcript, the next request), so such a
 * call comes back to the model as an invalid input instead of crashing the task or the session.
 * @example const response = limitInputDepth(await model.createMessage(request));
 */
export function limitInputDepth(response: ModelResponse): ModelResponse {
  const over = (input: unknown) => depthExceeds(input, MAX_INPUT_DEPTH) || inputChars(input, MAX_INPUT_CHARS) > MAX_INPUT_CHARS;
  if (!response.content.some((block) => block.type === 'tool_use' && over(block.input))) return response;
  const content = response.content.map((block) => {
    if (block.type !== 'tool_use' || !over(block.input)) return block;
    const standIn = {};
    // Depth first: counting the characters of a deep value is what must not happen.
    if (depthExceeds(block.input, MAX_INPUT_DEPTH)) tooDeep.add(standIn);
    else tooLarge.set(standIn, inputChars(block.input, Number.POSITIVE_INFINITY));
    return { ...block, input: standIn };
  });
  return { ...response, content };
}

/** Why this input cannot be used, or null: it was too deep or too large when it arrived, or is too deep now. */
export function inputDepthProblem(toolName: string, input: unknown): string | null {
  const size = typeof input === 'object' && input !== null ? tooLarge.get(input) : undefined;
  if (size !== undefined) {
    return (
      `The input of ${toolName} had ${size} characters, more than the ${MAX_INPUT_CHARS} kept, so it was not kept or run. ` +
      'Send it in parts (write_file with the start, then edit_file or more calls for the rest).'
    );
  }
  const replaced = typeof input === 'object' && input !== null && tooDeep.has(input);
  if (!replaced && !depthExceeds(input, MAX_INPUT_DEPTH)) return null;
  return `The input of ${toolName} was nested more than ${MAX_INPUT_DEPTH} levels deep, so it was not kept or run. Send a flat input that matches the tool's schema.`;
}
