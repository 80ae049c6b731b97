import { execFileSync } from 'node:child_process';
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

function git(args: string[], cwd: string): string | null {
  try {
    // A hung or huge repository must not hold the task up: two seconds, then no git facts.
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 4 << 20,
    }).trimEnd();
  } catch {
    return null;
  }
}

/** The repository `workspace` is in, with its branch and a short status, or null outside git (or without git). */
export function readGitState(workspace: string): GitState | null {
  const root = git(['rev-parse', '--show-toplevel'], workspace);
  if (root === null || root === '') return null;
  const branch = git(['branch', '--show-current'], workspace);
  const lines = (git(['status', '--short'], workspace) ?? '').split('\n').filter((l) => l !== '');
  const shown = lines.slice(0, STATUS_LINES);
  if (lines.length > STATUS_LINES) shown.push(`... and ${lines.length - STATUS_LINES} more`);
  return { root: path.resolve(root), branch: branch || null, status: shown.join('\n') };
}

/**
 * @example readEnvironment('/home/me/project').git?.branch // => 'main'
 */
export function readEnvironment(workspace: string, now: Date = new Date()): Environment {
  return {
    platform: process.platform,
    osRelease: os.release(),
    shell: process.env.SHELL || (process.platform === 'win32' ? 'cmd.exe' : '/bin/sh'),
    workspace,
    date: now.toISOString().slice(0, 10),
    git: readGitState(workspace),
  };
}
