import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * A project's own instructions for agents: AGENTS.md, then CLAUDE.md (for teams that have one),
 * in the workspace and each parent up to the repository root, plus $XAGENT_HOME/AGENTS.md for
 * every project. Outermost first, so the workspace's own file has the last word.
 */
export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;

/** Per file and in all: a runaway file must not eat the context window. */
export const MAX_FILE_CHARS = 20_000;
export const MAX_TOTAL_CHARS = 60_000;

export interface InstructionFile {
  path: string;
  text: string;
  /** True when the file was cut to fit the caps. */
  truncated: boolean;
}

/** The folders from the repository root (or the workspace, outside git) down to the workspace. */
export function instructionDirs(workspace: string, repoRoot: string | null): string[] {
  const dirs: string[] = [];
  let dir = path.resolve(workspace);
  const stop = repoRoot && (dir === repoRoot || dir.startsWith(`${repoRoot}${path.sep}`)) ? repoRoot : dir;
  for (;;) {
    dirs.unshift(dir);
    if (dir === stop) break;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs;
}

function readCapped(file: string, room: number): InstructionFile | null {
  try {
    if (!statSync(file).isFile()) return null;
    const text = readFileSync(file, 'utf8');
    const cap = Math.min(MAX_FILE_CHARS, room);
    if (text.length <= cap) return { path: file, text, truncated: false };
    return { path: file, text: `${text.slice(0, cap)}\n[... cut: the file has ${text.length} characters]`, truncated: true };
  } catch {
    return null; // unreadable: skipped, as a missing one is
  }
}

/**
 * Every instruction file that applies to `workspace`, home file first, in the order they go into
 * the system prompt.
 * @example loadProjectInstructions({ workspace: '/repo/pkg', repoRoot: '/repo', home: '~/.xagent' }).map((f) => f.path)
 *   // => ['~/.xagent/AGENTS.md', '/repo/AGENTS.md', '/repo/pkg/CLAUDE.md']
 */
export function loadProjectInstructions(options: { workspace: string; repoRoot: string | null; home: string | null }): InstructionFile[] {
  const candidates: string[] = [];
  if (options.home) candidates.push(path.join(options.home, 'AGENTS.md'));
  for (const dir of instructionDirs(options.workspace, options.repoRoot)) {
    for (const name of INSTRUCTION_FILE_NAMES) candidates.push(path.join(dir, name));
  }
  const files: InstructionFile[] = [];
  const seen = new Set<string>();
  let room = MAX_TOTAL_CHARS;
  for (const file of candidates) {
    if (room <= 0 || seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const loaded = readCapped(file, room);
    if (!loaded) continue;
    files.push(loaded);
    room -= loaded.text.length;
  }
  return files;
}
