/**
 * The terminal sanitiser: model-written text shown to a person must not be able to move the cursor,
 * clear a line or reorder characters, so every control character is shown as an escape.
 */

/** Makes terminal control characters and bidi overrides visible. */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
