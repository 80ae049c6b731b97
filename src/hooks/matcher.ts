import { toolNamesForMatchers } from '../permissions/claude-tools.js';

/**
 * Claude Code's matcher: an exact tool name, `a|b`, or a regular expression, matched against the
 * whole tool name (anchored, so `bash` does not match `bash_extra`); empty, `*` or absent match every tool.
 * Tools answer to xagent's name and to Claude Code's, so `Bash` and `Write|Edit` from a Claude Code
 * settings file match `bash`, `write_file` and `edit_file`.
 * @example compileMatcher('bash|edit_file')?.test('bash') // true
 * @throws SyntaxError when the matcher is not a valid regular expression
 */
export function compileMatcher(matcher: string | undefined): RegExp | null {
  if (matcher === undefined) return null;
  const text = matcher.trim();
  if (text === '' || text === '*') return null;
  return new RegExp(`^(?:${text})$`, 'u');
}

/**
 * Whether a compiled matcher takes this tool, by xagent's name or Claude Code's (`Task` or `Agent` for `task`); null takes every tool.
 * @example matchesTool(compileMatcher('Write|Edit'), 'edit_file') // true
 */
export function matchesTool(matcher: RegExp | null, toolName: string): boolean {
  return matcher === null || toolNamesForMatchers(toolName).some((name) => matcher.test(name));
}
