import type { ToolResult } from '../../machines/types.js';
import { fail } from './result.js';

/**
 * A string with a lone UTF-16 surrogate (`\ud800` without its pair) has no UTF-8 form: writing it
 * would silently put U+FFFD in its place. The file tools refuse it instead and say where it is.
 * @example unpairedSurrogate('a\ud800b', 'content') // { isError: true, content: 'content has an unpaired ...' }
 */
export function unpairedSurrogate(text: string, field: string): ToolResult | null {
  // A lead not followed by a trail, or a trail not after a lead (String#isWellFormed is ES2024).
  const at = text.search(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  if (at === -1) return null;
  return fail(
    `${field} has an unpaired UTF-16 surrogate (at character ${at}), which cannot be written as UTF-8; nothing was written. ` +
      "Send the character whole (both halves of the pair), or as its escape in the file's own syntax.",
  );
}
