import path from 'node:path';
import type { ToolCall } from '../../machines/types.js';
import { splitCommand } from './bash-command.js';
import { restrictionHit, type Hit, type RealPathOf } from './match-rule.js';
import { protectedWrite } from './protected-paths.js';
import { ruleAppliesTo, type PermissionRule } from './rules.js';

/**
 * A redirection is a write, wherever it sits (after a continuation, inside `$( )`, a subshell, a
 * process substitution, next to a heredoc), so the files a bash command writes that way are put
 * to the same file rules and protected paths as `write_file`: `--deny 'edit_file(.github/**)'`
 * bites `echo x > .github/ci.yml`, and `echo {} > .xagent/settings.json` asks whatever the bash
 * rules say. Where a target cannot be placed (a glob, an expansion, `~user`, after a `cd` whose
 * directory is not literal), restrictions bite it and the protected-path check asks.
 */

/** Where a redirection may write: the paths it could land on, or unplaceable. */
type WriteTarget = { written: string; paths: string[] } | { written: string; unplaceable: string };

const FILE_WRITE_TOOLS = ['write_file', 'edit_file'] as const;
const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);

/**
 * The files a bash call's redirections write, resolved against the workspace and every literal
 * directory a `cd` in the command could have moved to.
 * @example redirectTargets(bash('cd src && echo x > a.txt'), '/ws') // [{ written: 'a.txt', paths: ['a.txt', '/ws/src/a.txt'] }]
 */
export function redirectTargets(call: ToolCall, workspace: string): WriteTarget[] {
  if (call.name !== 'bash') return [];
  const command = (call.input as { command?: unknown } | null)?.command;
  if (typeof command !== 'string') return [];
  const parsed = splitCommand(command);
  if (parsed.writes.length === 0) return [];
  let cwds = [workspace];
  let lost: string | undefined;
  for (const part of parsed.parts) {
    if (!CHANGES_DIRECTORY.has(part.words[0] ?? '')) continue;
    const dir = part.words.slice(1).find((word) => !word.startsWith('-') || word === '-');
    const literal = dir !== undefined && part.words[0] !== 'popd' && dir !== '-' && placeable(dir) === undefined;
    if (!literal) lost ??= `after "${part.text}"`;
    else cwds = [...new Set([...cwds, ...cwds.map((cwd) => path.resolve(cwd, expandTilde(dir)))])];
  }
  return parsed.writes.map((written) => {
    const why = placeable(written) ?? lost;
    if (why !== undefined) return { written, unplaceable: why };
    const target = expandTilde(written);
    const paths = path.isAbsolute(target) ? [target] : cwds.map((cwd) => (cwd === workspace ? target : path.resolve(cwd, target)));
    return { written, paths };
  });
}

/** Does a write_file or edit_file deny or ask rule bite a file the bash call writes by redirection? */
export function redirectHit(rule: PermissionRule, call: ToolCall, workspace: string, realPathOf?: RealPathOf): Hit {
  // `write_file(…)`, `edit_file(…)` and Claude Code's `Edit(…)`, `Write(…)`: judged as the write tool they name.
  const tool = FILE_WRITE_TOOLS.find((name) => ruleAppliesTo(rule, name));
  if (tool === undefined) return null;
  for (const target of redirectTargets(call, workspace)) {
    if ('unplaceable' in target) return { what: `a redirection to "${target.written}" that cannot be placed (${target.unplaceable})` };
    for (const file of target.paths) {
      const hit = restrictionHit(rule, asWrite(tool, file), workspace, realPathOf);
      if (hit) return { what: `a redirection to ${hit.what}` };
    }
  }
  return null;
}

/** The protected file (xagent's settings) a bash call writes by redirection, or null. */
export function protectedRedirect(call: ToolCall, workspace: string, realPathOf?: RealPathOf): string | null {
  for (const target of redirectTargets(call, workspace)) {
    if ('unplaceable' in target) return `${target.written}, which cannot be placed (${target.unplaceable})`;
    for (const file of target.paths) {
      const guarded = protectedWrite(asWrite('write_file', file), workspace, realPathOf);
      if (guarded !== null) return guarded;
    }
  }
  return null;
}

function asWrite(tool: string, file: string): ToolCall {
  return { id: 'redirect', name: tool, input: { path: file } };
}

/** Why bash might not write where the text says: a glob, an expansion, another user's home. */
function placeable(target: string): string | undefined {
  if (/[*?[]/.test(target)) return 'a glob';
  if (/[$`]/.test(target)) return 'an expansion';
  if (/^~[^/]/.test(target)) return "another user's home";
  return undefined;
}

/** bash expands `~` in a redirection target from $HOME, the environment the bash tool runs with. */
function expandTilde(target: string): string {
  const home = process.env.HOME;
  if (!home || (target !== '~' && !target.startsWith('~/'))) return target;
  return path.join(home, target.slice(1));
}
