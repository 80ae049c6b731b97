import { existsSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { safeGit } from './safe-git.js';

/** What the model is told about where it works; read once per task, so the system prompt stays the same every round. */
export interface Environment {
  platform: string;
  osRelease: string;
  shell: string;
  workspace: string;
  /** YYYY-MM-DD: the day only, so the prompt (and its cache) survives the hour. */
  date: string;
  git: GitState | null;
}

export interface GitState {
  root: string;
  branch: string | null;
  /** `git status --short`, at most STATUS_LINES lines (with a count of the rest). */
  status: string;
}

const STATUS_LINES = 20;

/**
 * False only where git could not find a repository from `workspace`: no `.git` (nor a git folder's
 * HEAD) in it or any folder above its real path, and no GIT_DIR or GIT_WORK_TREE. There git is not
 * asked at all: starting it forks this whole process (a few ms of the task's start) only to hear "not
 * a git repository". Anywhere else git decides, as always (worktrees, safe.directory, core.worktree).
 */
function mayBeInRepository(workspace: string): boolean {
  if (process.env.GIT_DIR || process.env.GIT_WORK_TREE) return true;
  let dir: string;
  try {
    dir = realpathSync(workspace);
  } catch {
    return true;
  }
  for (;;) {
    if (existsSync(path.join(dir, '.git')) || existsSync(path.join(dir, 'HEAD'))) return true;
    const parent = path.dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}

/**
 * The repository `workspace` is in, with its branch and a short status, or null outside git (or
 * without git). Asynchronous, so the task's start-up (the model client loading, the session's
 * metadata being written) goes on while git runs; the three commands run side by side, each with
 * the repository's code switched off (safe-git.ts).
 * @example (await readGitState('/home/me/project'))?.branch // => 'main'
 */
export async function readGitState(workspace: string): Promise<GitState | null> {
  if (!mayBeInRepository(workspace)) return null;
  // Side by side: past that check it is nearly always a repository, so the three are rarely wasted.
  const [root, branch, status] = await Promise.all([
    safeGit(['rev-parse', '--show-toplevel'], workspace),
    safeGit(['branch', '--show-current'], workspace),
    // Submodules are not looked into: git would run there with that repository's own config.
    safeGit(['status', '--short', '--ignore-submodules=all'], workspace),
  ]);
  if (root === null || root === '') return null;
  const lines = (status ?? '').split('\n').filter((l) => l !== '');
  const shown = lines.slice(0, STATUS_LINES);
  if (lines.length > STATUS_LINES) shown.push(`... and ${lines.length - STATUS_LINES} more`);
  return { root: path.resolve(root), branch: branch || null, status: shown.join('\n') };
}

/**
 * The facts of the task's environment; `now` is taken when it is called, git's state when git answers.
 * Never rejects: a git that fails or hangs means no git facts.
 * @example (await readEnvironment('/home/me/project')).git?.branch // => 'main'
 */
export async function readEnvironment(workspace: string, now: Date = new Date()): Promise<Environment> {
  return {
    platform: process.platform,
    osRelease: os.release(),
    shell: process.env.SHELL || (process.platform === 'win32' ? 'cmd.exe' : '/bin/sh'),
    workspace,
    date: now.toISOString().slice(0, 10),
    git: await readGitState(workspace),
  };
}
