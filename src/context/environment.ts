import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

/** A hung or huge repository must not hold the task up: two seconds, then no git facts. */
const GIT_TIMEOUT_MS = 2000;
/** After the timeout's SIGTERM: how long git (or a child of it holding its output open) gets before we stop waiting. */
const GIT_KILL_GRACE_MS = 500;

/** One git command's output, or null when it fails, times out or writes more than 4 MB. Never rejects. */
function git(args: string[], cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const settle = (output: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(output);
    };
    try {
      const child = execFile('git', args, { cwd, encoding: 'utf8', timeout: GIT_TIMEOUT_MS, maxBuffer: 4 << 20 }, (error, stdout) =>
        settle(error ? null : stdout.trimEnd()),
      );
      // Nothing to read: git gets end of input at once, as it got /dev/null before.
      child.stdin?.end();
      // execFile answers when git's output closes; git ignoring SIGTERM, or a child of git holding
      // the pipe, must not hold the task either.
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        child.stdout?.destroy();
        child.stderr?.destroy();
        settle(null);
      }, GIT_TIMEOUT_MS + GIT_KILL_GRACE_MS);
    } catch {
      settle(null);
    }
  });
}

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
 * metadata being written) goes on while git runs; the three commands run side by side.
 * @example (await readGitState('/home/me/project'))?.branch // => 'main'
 */
export async function readGitState(workspace: string): Promise<GitState | null> {
  if (!mayBeInRepository(workspace)) return null;
  // Side by side: past that check it is nearly always a repository, so the three are rarely wasted.
  const [root, branch, status] = await Promise.all([
    git(['rev-parse', '--show-toplevel'], workspace),
    git(['branch', '--show-current'], workspace),
    git(['status', '--short'], workspace),
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
