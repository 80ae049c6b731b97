/**
 * Claude Code's matcher: an exact tool name, `a|b`, or a regular expression, matched against the
 * whole tool name (anchored, so `bash` does not match `bash_extra`); empty, `*` or absent match every tool.
 * @example compileMatcher('bash|edit_file')?.test('bash') // true
 * @throws SyntaxError when the matcher is not a valid regular expression
 */
export function compileMatcher(matcher: string | undefined): RegExp | null {
  if (matcher === undefined) return null;
  const text = matcher.trim();
  if (text === '' || text === '*') return null;
  return new RegExp(`^(?:${text})$`, 'u');
}

/** Whether a compiled matcher takes this tool; null takes every tool. */
export function matchesTool(matcher: RegExp | null, toolName: string): boolean {
  return matcher === null || matcher.test(toolName);
}
