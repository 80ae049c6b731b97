import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { createPermissionPolicy } from '../../src/permissions/policy.js';
import { call, rules, toolOf, WS } from './helpers.js';

/** Issue 31 H3 and L8: git's folder and nested project settings are protected paths for the file tools. */

const write = (file: string) => call('write_file', { path: file, content: '[core]\n\tfsmonitor = "touch /tmp/pwned"\n' });
const decide = (file: string, mode: 'acceptEdits' | 'default' = 'acceptEdits', allow: string[] = []) =>
  checkPermission({ call: write(file), tool: toolOf(write(file)), mode, rules: rules({ allow }), workspace: WS });

describe('writes into .git ask, at any depth, whatever the mode and allow rules say', () => {
  it.each([
    '.git/config',
    '.git/hooks/pre-commit',
    '.git/commondir',
    '.git/worktrees/x/config.worktree',
    '.git',
    'vendor/lib/.git/config',
    'vendor/lib/.git',
    'sub/.xagent/settings.json',
    'sub/.mcp.json',
    '.claude/settings.json',
    'pkg/.claude/settings.local.json',
  ])('%s asks in acceptEdits and under write_file(**)', (file) => {
    expect(decide(file).behavior).toBe('ask');
    expect(decide(file, 'default', ['write_file', 'write_file(**)']).behavior).toBe('ask');
    expect(decide(file).decidedBy).toMatch(/^protected path/);
  });

  it('leaves look-alikes alone', () => {
    for (const file of ['.gitignore', '.github/workflows/ci.yml', 'src/git/config.ts', 'x.git/config']) {
      expect(decide(file).behavior, file).toBe('allow');
    }
  });
});

describe('a symlink never carries a write into a protected path', () => {
  const workspace = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-protected-link-')));
  afterAll(() => rmSync(workspace, { recursive: true, force: true }));
  mkdirSync(path.join(workspace, '.git'));
  mkdirSync(path.join(workspace, 'docs'));
  symlinkSync('../.git/config', path.join(workspace, 'docs', 'notes.txt'));
  symlinkSync('.git', path.join(workspace, 'gitdir'));
  symlinkSync('loop-b', path.join(workspace, 'loop-a'));
  symlinkSync('loop-a', path.join(workspace, 'loop-b'));
  const policy = createPermissionPolicy({ mode: 'acceptEdits', rules: [], workspace });

  it.each(['docs/notes.txt', 'gitdir/config', 'gitdir/hooks/post-checkout'])('%s (a link into .git) asks', (file) => {
    expect(policy.decide(write(file), toolOf(write(file))).behavior).toBe('ask');
  });

  it('a path whose links cannot be followed (a loop) asks too', () => {
    expect(policy.decide(write('loop-a/x'), toolOf(write('loop-a/x'))).behavior).toBe('ask');
  });
});
