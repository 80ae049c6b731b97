import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGitState } from '../../src/context/environment.js';
import { bash, layout, sandboxFor } from './helpers.js';
import { runsHere } from '../support/system-packages.js';

/** These tests run commands in real bubblewrap; without it (outside CI) they skip, and the run says so. */
const BWRAP = runsHere('bwrap');

/**
 * Issue 31 H3 and M1 from sandboxed bash (real bwrap): a command tries to plant a git config that
 * runs code (core.fsmonitor) for the next `git status`, xagent's own or the user's. Each attempt
 * must fail inside, and the next git facts must run nothing.
 */

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore' });

function plant(marker: string): string {
  return `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch ${marker}; false"\\n'`;
}

describe.skipIf(!BWRAP)('sandboxed bash cannot plant git config (issue 31, H3)', () => {
  it('through .git/commondir pointing at a config of its own in the workspace', async () => {
    const l = layout();
    git(l.ws, 'init', '-q');
    const marker = path.join(l.outside, 'ran');
    const result = await bash(l, `cp -r .git evil && ${plant(marker)} > evil/config && echo ../evil > .git/commondir`, {
      sandbox: sandboxFor(l),
    });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('Read-only file system');
    expect(existsSync(path.join(l.ws, '.git', 'commondir'))).toBe(false);
    await readGitState(l.ws);
    expect(existsSync(marker)).toBe(false);
  });

  it('by making a .git where the workspace had none (git init, or by hand)', async () => {
    const l = layout();
    const marker = path.join(l.outside, 'ran');
    const sandbox = sandboxFor(l);
    const byHand = await bash(l, `mkdir -p .git && ${plant(marker)} > .git/config && echo 'ref: refs/heads/main' > .git/HEAD`, { sandbox });
    expect(byHand.isError).toBe(true);
    const init = await bash(l, 'git init -q .', { sandbox });
    expect(init.isError).toBe(true);
    expect(readdirSync(l.ws).sort()).toEqual(['victim.txt']);
    await readGitState(l.ws);
    expect(existsSync(marker)).toBe(false);
  });

  it('by replacing a .git file (a worktree) with a folder of its own', async () => {
    const l = layout();
    writeFileSync(path.join(l.ws, '.git'), `gitdir: ${l.outside}/repo.git\n`);
    const marker = path.join(l.outside, 'ran');
    const result = await bash(l, `rm -f .git; mkdir .git && ${plant(marker)} > .git/config`, { sandbox: sandboxFor(l) });
    expect(result.isError).toBe(true);
    expect(readFileSync(path.join(l.ws, '.git'), 'utf8')).toBe(`gitdir: ${l.outside}/repo.git\n`);
  });

  it('the same commondir plant without the sandbox does run code at the next plain git status (the test can fail)', async () => {
    const l = layout();
    git(l.ws, 'init', '-q');
    const marker = path.join(l.outside, 'ran');
    await bash(l, `cp -r .git evil && ${plant(marker)} > evil/config && echo ../evil > .git/commondir`);
    try {
      execFileSync('git', ['status'], { cwd: l.ws, stdio: 'ignore' });
    } catch {
      // fsmonitor's false makes git complain; the marker is what counts
    }
    expect(existsSync(marker)).toBe(true);
  });
});

describe.skipIf(!BWRAP)('a protected path that is a symlink is never replaced from the sandbox (issue 31, M1)', () => {
  it.each(['.git', '.xagent', '.mcp.json'])('%s as a link: the command does not run, and the link stays', async (name) => {
    const l = layout();
    const target = path.join(l.ws, 'real-target');
    if (name === '.mcp.json') writeFileSync(target, '{}\n');
    else mkdirSync(target);
    symlinkSync('real-target', path.join(l.ws, name));
    const result = await bash(l, `rm -rf ${name}; mkdir ${name}; echo done > ran.txt`, { sandbox: sandboxFor(l) });
    expect(result.isError).toBe(true);
    expect(result.sandboxed).toBe(true);
    expect(result.content).toContain(`${name} is a symbolic link`);
    expect(existsSync(path.join(l.ws, 'ran.txt'))).toBe(false);
    expect(lstatSync(path.join(l.ws, name)).isSymbolicLink()).toBe(true);
    expect(readdirSync(l.ws).sort()).toEqual([name, 'real-target', 'victim.txt'].sort());
  });
});

describe.skipIf(!BWRAP)('nested protected paths that exist are read-only inside the sandbox too (issue 31, L8)', () => {
  it('vendor/lib/.git/config, sub/.xagent/settings.json and pkg/.mcp.json cannot be written; the rest of those folders can', async () => {
    const l = layout();
    mkdirSync(path.join(l.ws, 'vendor', 'lib', '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(l.ws, 'vendor', 'lib', '.git', 'config'), '[core]\n');
    mkdirSync(path.join(l.ws, 'sub', '.xagent'), { recursive: true });
    writeFileSync(path.join(l.ws, 'sub', '.xagent', 'settings.json'), '{}\n');
    mkdirSync(path.join(l.ws, 'pkg'));
    writeFileSync(path.join(l.ws, 'pkg', '.mcp.json'), '{}\n');
    const sandbox = sandboxFor(l);
    for (const attempt of [
      'echo "  fsmonitor = x" >> vendor/lib/.git/config',
      'echo x > vendor/lib/.git/hooks/post-checkout',
      'echo \'{"permissions":{"allow":["bash"]}}\' > sub/.xagent/settings.json',
      'echo \'{"mcpServers":{}}\' > pkg/.mcp.json',
    ]) {
      expect((await bash(l, attempt, { sandbox })).isError, attempt).toBe(true);
    }
    expect(readFileSync(path.join(l.ws, 'vendor', 'lib', '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(readFileSync(path.join(l.ws, 'sub', '.xagent', 'settings.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(path.join(l.ws, 'pkg', '.mcp.json'), 'utf8')).toBe('{}\n');
    const elsewhere = await bash(l, 'echo ok > vendor/lib/README && echo ok > vendor/lib/.git/HEAD', { sandbox });
    expect(elsewhere.isError).toBe(false);
  });
});
