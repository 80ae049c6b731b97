import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEnvironment, readGitState, type Environment } from '../../src/context/environment.js';
import { buildSystemPrompt } from '../../src/context/system-prompt.js';
import { tempDir } from '../support/engine-harness.js';

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const sleep = execFileSync('sh', ['-c', 'command -v sleep'], { encoding: 'utf8' }).trim();

/** A real repository on branch `trunk` with one commit, a changed file and `untracked` new files. */
function repo(untracked = 1): string {
  const root = realpathSync(tempDir('xagent-env-repo-'));
  const git = (...args: string[]) => execFileSync(realGit, ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root });
  git('init', '-q', '-b', 'trunk');
  writeFileSync(path.join(root, 'tracked.txt'), 'one\n');
  git('add', 'tracked.txt');
  git('commit', '-q', '-m', 'first');
  writeFileSync(path.join(root, 'tracked.txt'), 'two\n');
  for (let i = 0; i < untracked; i++) writeFileSync(path.join(root, `new-${String(i).padStart(2, '0')}.txt`), 'x');
  return root;
}

/** What the synchronous reader this replaced told the model: the three commands, one after another. */
function gitFactsTheOldWay(cwd: string) {
  const run = (args: string[]) => execFileSync(realGit, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trimEnd();
  const lines = run(['status', '--short'])
    .split('\n')
    .filter((l) => l !== '');
  const shown = lines.slice(0, 20);
  if (lines.length > 20) shown.push(`... and ${lines.length - 20} more`);
  return { root: run(['rev-parse', '--show-toplevel']), branch: run(['branch', '--show-current']) || null, status: shown.join('\n') };
}

const savedEnv = { PATH: process.env.PATH, GIT_DIR: process.env.GIT_DIR };
afterEach(() => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Puts a `git` made of `script` (sh) first and alone on PATH; returns the file it may log to. */
function fakeGit(script: string): { log: string; dir: string } {
  const dir = tempDir('xagent-fake-git-');
  const log = path.join(dir, 'calls.log');
  writeFileSync(path.join(dir, 'git'), `#!/bin/sh\n${script.replaceAll('$LOG', log)}\n`);
  chmodSync(path.join(dir, 'git'), 0o755);
  process.env.PATH = dir;
  return { log, dir };
}

/** The logged git commands without the `-c name=value` pairs that switch the repository's code off (safe-git.ts). */
const calls = (log: string) =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.replace(/^(-c \S+ )+/, ''))
    : [];

describe('the git facts of the environment', () => {
  it('are what git says in a real repository: root, branch and short status, the same bytes as before', async () => {
    const root = repo();
    const sub = path.join(root, 'sub');
    mkdirSync(sub);
    const state = await readGitState(sub);
    expect(state).toEqual(gitFactsTheOldWay(sub));
    expect(state).toEqual({ root, branch: 'trunk', status: ' M ../tracked.txt\n?? ../new-00.txt' });
  });

  it('give a system prompt byte for byte the one built from the synchronous commands', async () => {
    const root = repo(25);
    const now = new Date('2026-12-01T06:30:00Z');
    const environment = await readEnvironment(root, now);
    const before: Environment = { ...environment, git: gitFactsTheOldWay(root) };
    expect(environment.git?.status.split('\n')).toHaveLength(21);
    expect(environment.git?.status).toContain('... and 6 more');
    expect(buildSystemPrompt({ environment, instructions: [] })).toBe(buildSystemPrompt({ environment: before, instructions: [] }));
  });

  it('outside any repository are none, and git is not even started', async () => {
    const plain = realpathSync(tempDir('xagent-env-plain-'));
    const { log } = fakeGit(`echo "$*" >> "$LOG"; exec ${realGit} "$@"`);
    expect(await readGitState(plain)).toBeNull();
    expect(calls(log)).toEqual([]);
    // The same fake in a repository is asked, so the check above would see a call.
    expect(await readGitState(repo())).toMatchObject({ branch: 'trunk' });
    expect(calls(log).sort()).toEqual([
      'branch --show-current',
      'config --null --show-scope --get-regexp ^filter\\.',
      'rev-parse --show-toplevel',
      'status --short --ignore-submodules=all',
    ]);
  });

  it('with GIT_DIR set, come from git even where no .git is above the workspace', async () => {
    const root = repo();
    const plain = realpathSync(tempDir('xagent-env-plain-'));
    const { log } = fakeGit(`echo "$*" >> "$LOG"; exec ${realGit} "$@"`);
    process.env.GIT_DIR = path.join(root, '.git');
    expect(await readGitState(plain)).toMatchObject({ root: plain, branch: 'trunk' });
    expect(calls(log)).toContain('rev-parse --show-toplevel');
  });

  it('are none when git fails or is not installed', async () => {
    const root = repo();
    fakeGit('echo "fatal: broken" >&2; exit 128');
    expect(await readGitState(root)).toBeNull();
    process.env.PATH = tempDir('xagent-no-git-');
    expect(await readGitState(root)).toBeNull();
    expect((await readEnvironment(root)).git).toBeNull();
  });

  it('are none when git hangs: it is stopped after its two seconds and the task goes on', { timeout: 30_000 }, async () => {
    const root = repo();
    fakeGit(`exec ${sleep} 300`);
    expect(await readGitState(root)).toBeNull();
  });

  it('are none when git ignores SIGTERM: it is killed', { timeout: 30_000 }, async () => {
    const root = repo();
    // An ignored signal stays ignored across exec: this "git" outlives the timeout's SIGTERM.
    fakeGit(`trap '' TERM\nexec ${sleep} 300`);
    expect(await readGitState(root)).toBeNull();
  });

  it('are none when a child of git keeps its output open after git is stopped', { timeout: 30_000 }, async () => {
    const root = repo();
    const { log } = fakeGit(`${sleep} 300 &\necho $! >> "$LOG"\nwait`);
    try {
      expect(await readGitState(root)).toBeNull();
    } finally {
      // One per git command; they would outlive the test otherwise.
      for (const pid of calls(log).map(Number)) if (pid > 0) process.kill(pid, 'SIGKILL');
    }
  });
});
