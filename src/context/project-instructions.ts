import { readFileSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { joinResolved } from '../system/atomic-write-sync.js';
import { importsOf, MAX_IMPORT_DEPTH } from './instruction-imports.js';

/**
 * A project's own instructions for agents: AGENTS.md, then Claude Code's CLAUDE.md,
 * .claude/CLAUDE.md and CLAUDE.local.md, in the workspace and each parent up to the repository
 * root, after $XAGENT_HOME/AGENTS.md and ~/.claude/CLAUDE.md for every project. Outermost first,
 * so the workspace's own file has the last word. `@path` imports follow the file that imports them.
 *
 * Only files whose real path (symlinks followed) lies inside the project (the repository root, or
 * the workspace outside git) or the person's own folders ($XAGENT_HOME, ~/.claude) are read: an
 * AGENTS.md that is a link to ~/.ssh/id_rsa, or `@~/.aws/credentials`, never reaches the prompt.
 * And the person's folders are reached only from the person's own files: a project file (and what
 * it imports) reaches inside the project alone, unless the project is trusted (`outsideImports`);
 * a cloned repository's `@~/.claude/settings.json` is left out and reported (`onLeftOut`).
 */
export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md', path.join('.claude', 'CLAUDE.md'), 'CLAUDE.local.md'] as const;

/**
 * Claude Code reads an instruction file whole and warns above 40,000 characters; xagent does the
 * same (the file is marked `large`). Only all of them together are capped, so the window keeps room.
 */
export const LARGE_FILE_CHARS = 40_000;
export const MAX_TOTAL_CHARS = 120_000;

export interface InstructionFile {
  path: string;
  text: string;
  /** True when the file was cut to fit the total cap. */
  truncated: boolean;
  /** Over LARGE_FILE_CHARS: Claude Code's "large CLAUDE.md" warning. */
  large?: boolean;
  /** The file whose `@path` brought this one in. */
  importedFrom?: string;
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

function realOrNull(file: string): string | null {
  try {
    // realpath(3), one system call: the JavaScript realpathSync walks the path a part at a time.
    return realpathSync.native(file);
  } catch {
    return null;
  }
}

function inside(file: string, roots: readonly string[]): boolean {
  return roots.some((root) => file === root || file.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`));
}

function read(file: string, real: string, room: number, importedFrom?: string): InstructionFile | null {
  try {
    if (!statSync(real).isFile()) return null;
    const text = readFileSync(real, 'utf8');
    const extra = { ...(text.length > LARGE_FILE_CHARS ? { large: true } : {}), ...(importedFrom ? { importedFrom } : {}) };
    if (text.length <= room) return { path: file, text, truncated: false, ...extra };
    return { path: file, text: `${text.slice(0, room)}\n[... cut: the file has ${text.length} characters]`, truncated: true, ...extra };
  } catch {
    return null; // unreadable: skipped, as a missing one is
  }
}

/**
 * Every instruction file that applies to `workspace`, home files first, in the order they go into
 * the system prompt.
 * @example loadProjectInstructions({ workspace: '/repo/pkg', repoRoot: '/repo', home: '~/.xagent' }).map((f) => f.path)
 *   // => ['~/.xagent/AGENTS.md', '/repo/AGENTS.md', '/repo/pkg/CLAUDE.md']
 */
export function loadProjectInstructions(options: {
  workspace: string;
  repoRoot: string | null;
  home: string | null;
  /** Claude Code's user folder; default `$HOME/.claude`; null: none. */
  claudeHome?: string | null;
  /** The project is trusted: its files may import from the person's folders too. Default false. */
  outsideImports?: boolean;
  /** Told of each import a project file made outside the project that was left out. */
  onLeftOut?: (file: string, importedFrom: string) => void;
}): InstructionFile[] {
  const claudeHome = options.claudeHome === undefined ? path.join(process.env.HOME || os.homedir(), '.claude') : options.claudeHome;
  const project = instructionDirs(options.workspace, options.repoRoot)[0]!;
  const reals = (dirs: ReadonlyArray<string | null>) =>
    dirs.flatMap((dir) => {
      const real = dir ? realOrNull(dir) : null;
      return real ? [real] : [];
    });
  const projectRoots = reals([project, options.workspace]);
  const personRoots = reals([project, options.workspace, options.home, claudeHome]);
  // Whose file started the chain decides how far it reaches: the person's, or the project's (unless trusted).
  const reach = { person: personRoots, project: options.outsideImports ? personRoots : projectRoots };
  const candidates: Array<{ file: string; owner: keyof typeof reach }> = [];
  if (options.home) candidates.push({ file: path.join(options.home, 'AGENTS.md'), owner: 'person' });
  if (claudeHome) candidates.push({ file: path.join(claudeHome, 'CLAUDE.md'), owner: 'person' });
  for (const dir of instructionDirs(options.workspace, options.repoRoot)) {
    for (const name of INSTRUCTION_FILE_NAMES) candidates.push({ file: joinResolved(dir, name), owner: 'project' });
  }
  const files: InstructionFile[] = [];
  const seen = new Set<string>();
  let room = MAX_TOTAL_CHARS;
  const visit = (file: string, owner: keyof typeof reach, depth: number, importedFrom?: string): void => {
    const real = realOrNull(file);
    if (room <= 0 || real === null || seen.has(real) || !inside(real, personRoots)) return;
    if (!inside(real, reach[owner])) {
      if (importedFrom) options.onLeftOut?.(file, importedFrom);
      return;
    }
    seen.add(real);
    const loaded = read(file, real, room, importedFrom);
    if (!loaded) return;
    files.push(loaded);
    room -= loaded.text.length;
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const imported of importsOf(loaded.text, path.dirname(real))) visit(imported, owner, depth + 1, file);
  };
  for (const { file, owner } of candidates) visit(file, owner, 0);
  return files;
}
