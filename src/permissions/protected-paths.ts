import type { ToolCall } from '../../machines/types.js';
import { callPaths, type RealPathOf } from './match-rule.js';
import { globToRegExp, resolveToolPath } from './path-glob.js';

/**
 * Files that decide what runs later with the user's rights: xagent's settings (permissions, hooks,
 * MCP servers), Claude Code's (read too), `.mcp.json`, and git's folder (its config names commands
 * git runs: core.fsmonitor, filters, hooks; `commondir` and a `.git` file say where that config is).
 * A tool write there would let the model grant itself permissions or plant code for later runs, so
 * it always asks, whatever the rules and mode say, unless the user chose bypassPermissions. At any
 * depth: a nested repository or project folder is run by git and xagent just the same.
 */
export const PROTECTED_PATTERNS = [
  '**/.xagent',
  '**/.xagent/**',
  '**/.claude',
  '**/.claude/**',
  '**/.mcp.json',
  '**/.git',
  '**/.git/**',
] as const;

const WRITE_TOOLS = new Set(['write_file', 'edit_file']);
const PROTECTED = PROTECTED_PATTERNS.map((pattern) => globToRegExp(pattern));

/**
 * The protected file a write call touches (as written or after symlinks, so a link never carries a
 * write there), or null.
 * @example protectedWrite({ id: '1', name: 'write_file', input: { path: '.xagent/settings.json' } }, '/ws') // '.xagent/settings.json'
 */
export function protectedWrite(call: ToolCall, workspace: string, realPathOf?: RealPathOf): string | null {
  if (!WRITE_TOOLS.has(call.name)) return null;
  const paths = callPaths(call, workspace, realPathOf);
  if (paths === null) return null;
  // A path whose links cannot be followed could end anywhere, a protected file included.
  if (paths.real === null) return resolveToolPath(paths.written, workspace).inside ? paths.written : null;
  for (const candidate of [paths.written, paths.real]) {
    if (typeof candidate !== 'string') continue;
    const resolved = resolveToolPath(candidate, workspace);
    if (resolved.inside && PROTECTED.some((re) => re.test(resolved.relative))) return resolved.relative;
  }
  return null;
}
