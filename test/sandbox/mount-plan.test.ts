import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bwrapArgs } from '../../src/sandbox/bwrap-args.js';
import { planMounts, ProtectedLinkError } from '../../src/sandbox/mount-plan.js';
import { heldPlaceholders, holdPlaceholders, sweepPlaceholders } from '../../src/sandbox/placeholders.js';

const roots: string[] = [];
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function root(): string {
  const dir = realpathSync(mkdtempSync('/var/tmp/xagent-mount-plan-'));
  roots.push(dir);
  mkdirSync(path.join(dir, 'ws'));
  return dir;
}

describe('planMounts', () => {
  it('binds the workspace, then covers .xagent, .claude, .mcp.json and a whole missing .git with placeholders', () => {
    const ws = path.join(root(), 'ws');
    const plan = planMounts({ workspace: ws, hidden: [] });
    expect(plan.mounts).toEqual([
      { type: 'bind', path: ws },
      { type: 'ro-bind', path: `${ws}/.xagent` },
      { type: 'ro-bind', path: `${ws}/.claude` },
      { type: 'ro-bind', path: `${ws}/.mcp.json` },
      { type: 'ro-bind', path: `${ws}/.git` },
    ]);
    expect(plan.placeholders).toEqual([
      { path: `${ws}/.xagent`, kind: 'dir' },
      { path: `${ws}/.claude`, kind: 'dir' },
      // Reads as "no servers": one a kill -9 leaves behind breaks no later run (issue 31, M7).
      { path: `${ws}/.mcp.json`, kind: 'file', content: '{}\n' },
      { path: `${ws}/.git`, kind: 'dir' },
    ]);
  });

  it('in a real repository protects .git/hooks, config and commondir (which reads "." as a placeholder), and pins .git', () => {
    const ws = path.join(root(), 'ws');
    mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(ws, '.git', 'config'), '');
    const plan = planMounts({ workspace: ws, hidden: [] });
    expect(plan.mounts.filter((m) => m.path.includes('.git'))).toEqual([
      { type: 'bind', path: `${ws}/.git` },
      { type: 'ro-bind', path: `${ws}/.git/hooks` },
      { type: 'ro-bind', path: `${ws}/.git/config` },
      { type: 'ro-bind', path: `${ws}/.git/commondir` },
    ]);
    expect(plan.placeholders.filter((p) => p.path.includes('.git'))).toEqual([
      { path: `${ws}/.git/commondir`, kind: 'file', content: '.\n' },
    ]);
  });

  it('pins a .git file (a worktree) as it is, and protects the git folder it names when that is in the workspace', () => {
    const ws = path.join(root(), 'ws');
    writeFileSync(path.join(ws, '.git'), 'gitdir: /elsewhere\n');
    expect(planMounts({ workspace: ws, hidden: [] }).mounts.filter((m) => m.path.includes('.git'))).toEqual([
      { type: 'ro-bind', path: `${ws}/.git` },
    ]);
    mkdirSync(path.join(ws, 'repo', 'hooks'), { recursive: true });
    writeFileSync(path.join(ws, '.git'), 'gitdir: repo\n');
    expect(planMounts({ workspace: ws, hidden: [] }).mounts.filter((m) => m.path.includes('repo') || m.path.endsWith('.git'))).toEqual([
      { type: 'bind', path: `${ws}/repo` },
      { type: 'ro-bind', path: `${ws}/.git` },
      { type: 'ro-bind', path: `${ws}/repo/hooks` },
      { type: 'ro-bind', path: `${ws}/repo/config` },
      { type: 'ro-bind', path: `${ws}/repo/commondir` },
    ]);
  });

  it.each(['.git', '.mcp.json', '.xagent', '.git/hooks'])(
    'refuses when %s is a symlink: no mount can pin a link (issue 31, M1)',
    (link) => {
      const ws = path.join(root(), 'ws');
      if (link.startsWith('.git/')) mkdirSync(path.join(ws, '.git'));
      mkdirSync(path.join(ws, 'target'));
      symlinkSync('target', path.join(ws, link));
      expect(() => planMounts({ workspace: ws, hidden: [] })).toThrow(ProtectedLinkError);
      expect(() => planMounts({ workspace: ws, hidden: [] })).toThrow(`${link} is a symbolic link`);
    },
  );

  it('hides what exists: a folder holding the workspace before the workspace is bound, the rest after; /tmp and missing paths are skipped', () => {
    const base = root();
    const ws = path.join(base, 'ws');
    mkdirSync(path.join(base, 'keys'));
    writeFileSync(path.join(base, 'token'), 'x');
    const plan = planMounts({
      workspace: ws,
      hidden: [base, path.join(base, 'keys'), path.join(base, 'token'), path.join(base, 'missing'), '/tmp'],
    });
    expect(plan.mounts.slice(0, 4)).toEqual([
      { type: 'hide-dir', path: base },
      { type: 'bind', path: ws },
      { type: 'hide-dir', path: path.join(base, 'keys') },
      { type: 'hide-file', path: path.join(base, 'token') },
    ]);
  });
});

describe('planMounts when the workspace is the home folder', () => {
  it('keeps the xagent home hidden: .xagent is not bound again on top of its hiding', () => {
    const ws = path.join(root(), 'ws');
    mkdirSync(path.join(ws, '.xagent', 'sessions'), { recursive: true });
    const plan = planMounts({ workspace: ws, hidden: [path.join(ws, '.xagent')] });
    expect(plan.mounts.filter((m) => m.path === `${ws}/.xagent`)).toEqual([{ type: 'hide-dir', path: `${ws}/.xagent` }]);
  });
});

describe('bwrapArgs', () => {
  const mounts = [{ type: 'bind', path: '/ws' } as const, { type: 'hide-dir', path: '/home/me/.ssh' } as const];
  it('unshares everything, drops every capability, mounts / read-only first and the rest in order, then runs the command', () => {
    const args = bwrapArgs({ mounts, network: false, cwd: '/ws/sub', command: 'bash', args: ['-c', 'make'] });
    expect(args.slice(0, 7)).toEqual([
      '--die-with-parent',
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--cap-drop',
      'ALL',
      '--ro-bind',
    ]);
    expect(args).not.toContain('--share-net');
    expect(args.join(' ')).toContain(
      '--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /ws /ws --tmpfs /home/me/.ssh --remount-ro /home/me/.ssh',
    );
    expect(args.slice(-6)).toEqual(['--chdir', '/ws/sub', '--', 'bash', '-c', 'make']);
  });

  it('keeps the network namespace only when the network is allowed', () => {
    expect(bwrapArgs({ mounts, network: true, cwd: '/ws', command: 'true', args: [] })).toContain('--share-net');
  });
});

describe('holdPlaceholders', () => {
  it('creates the missing paths, and removes them when the last holder releases, only while empty', () => {
    const ws = path.join(root(), 'ws');
    const placeholders = [
      { path: `${ws}/.git`, kind: 'dir' as const },
      { path: `${ws}/.git/hooks`, kind: 'dir' as const },
      { path: `${ws}/.mcp.json`, kind: 'file' as const },
    ];
    const first = holdPlaceholders(placeholders);
    const second = holdPlaceholders(placeholders);
    expect(existsSync(`${ws}/.git/hooks`) && existsSync(`${ws}/.mcp.json`)).toBe(true);
    first();
    first();
    expect(existsSync(`${ws}/.git/hooks`)).toBe(true);
    writeFileSync(`${ws}/.git/HEAD`, 'ref: refs/heads/main\n');
    second();
    expect(existsSync(`${ws}/.mcp.json`)).toBe(false);
    expect(existsSync(`${ws}/.git/hooks`)).toBe(false);
    expect(existsSync(`${ws}/.git/HEAD`)).toBe(true);
    expect(heldPlaceholders()).toEqual([]);
  });

  it('leaves alone a path that already exists: it is not ours to remove', () => {
    const ws = path.join(root(), 'ws');
    writeFileSync(`${ws}/.mcp.json`, '');
    holdPlaceholders([{ path: `${ws}/.mcp.json`, kind: 'file' }])();
    expect(existsSync(`${ws}/.mcp.json`)).toBe(true);
  });
});

describe('sweepPlaceholders (issue 31, M7: a kill -9 skips every cleanup)', () => {
  it("removes what a dead process's journal lists while it is still a placeholder, and keeps a live one's", () => {
    const base = root();
    const ws = path.join(base, 'ws');
    const journal = path.join(base, 'journal');
    mkdirSync(journal);
    mkdirSync(`${ws}/.xagent`);
    writeFileSync(`${ws}/.mcp.json`, '{}\n');
    mkdirSync(`${ws}/.claude`);
    writeFileSync(`${ws}/.claude/settings.json`, '{}');
    const listed = [
      { path: `${ws}/.xagent`, kind: 'dir' },
      { path: `${ws}/.mcp.json`, kind: 'file', content: '{}\n' },
      { path: `${ws}/.claude`, kind: 'dir' },
    ];
    // No process has pid 2^22 + 1 (pid_max is at most 2^22).
    writeFileSync(path.join(journal, 'placeholders-4194305.json'), JSON.stringify(listed));
    writeFileSync(path.join(journal, `placeholders-${process.ppid}.json`), JSON.stringify(listed));
    expect(sweepPlaceholders(journal).sort()).toEqual([`${ws}/.mcp.json`, `${ws}/.xagent`]);
    expect(readdirSync(ws).sort()).toEqual(['.claude']);
    expect(readdirSync(journal)).toEqual([`placeholders-${process.ppid}.json`]);
  });

  it('lists what this process holds while it holds it, and nothing once released', () => {
    const base = root();
    const ws = path.join(base, 'ws');
    const journal = path.join(base, 'journal');
    const release = holdPlaceholders([{ path: `${ws}/.mcp.json`, kind: 'file', content: '{}\n' }], journal);
    expect(readFileSync(`${ws}/.mcp.json`, 'utf8')).toBe('{}\n');
    expect(JSON.parse(readFileSync(path.join(journal, `placeholders-${process.pid}.json`), 'utf8'))).toEqual([
      { path: `${ws}/.mcp.json`, kind: 'file', content: '{}\n' },
    ]);
    release();
    expect(existsSync(`${ws}/.mcp.json`)).toBe(false);
    expect(readdirSync(journal)).toEqual([]);
  });
});
