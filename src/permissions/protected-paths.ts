import type { ToolCall } from '../../machines/types.js';
import { callPaths, type RealPathOf } from './match-rule.js';
import { globToRegExp, resolveToolPath } from './path-glob.js';

/**
 * Files that decide what xagent itself may do: its settings (permissions, hooks, MCP servers) and
 * `.mcp.json`. A tool write there would let the model grant itself permissions for later runs, so
 * it always asks, whatever the rules and mode say, unless the user chose bypassPermissions.
 */
export const PROTECTED_PATTERNS = ['.xagent', '.xagent/**', '.mcp.json'] as const;

const WRITE_TOOLS = new Set(['write_file', 'edit_file']);
const PROTECTED = PROTECTED_PATTERNS.map((pattern) => globToRegExp(pattern));

/**
 * The protected file a write call touches (as written or after symlinks), or null.
 * @example protectedWrite({ id: '1', name: 'write_file', input: { path: '.xagent/settings.json' } }, '/ws') // '.xagent/settings.json'
 */
export function protectedWrite(call: ToolCall, workspace: string, realPathOf?: RealPathOf): string | null {
  if (!WRITE_TOOLS.has(call.name)) return null;
  const paths = callPaths(call, workspace, realPathOf);
  if (paths === null) return null;
  for (const candidate of [paths.written, paths.real]) {
    if (typeof candidate !== 'string') continue;
    const resolved = resolveToolPath(candidate, workspace);
    if (resolved.inside && PROTECTED.some((re) => re.test(resolved.relative))) return resolved.relative;
  }
  return null;
}
