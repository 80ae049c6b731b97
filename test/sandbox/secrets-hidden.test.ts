import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSecretEnv } from '../../src/sandbox/secret-env.js';
import { bash, layout, sandboxFor } from './helpers.js';
import { runsHere } from '../support/system-packages.js';

/** These tests run commands in real bubblewrap; without it (outside CI) they skip, and the run says so. */
const BWRAP = runsHere('bwrap');

/** Issue 31 L6: other secrets than the agent's key stay outside the sandbox, in variables and in files. */

describe('secret environment variables (issue 31, L6)', () => {
  it.each([
    ['GITHUB_TOKEN', 'ghp_x'],
    ['AWS_SECRET_ACCESS_KEY', 'x'],
    ['AWS_SESSION_TOKEN', 'x'],
    ['OPENAI_API_KEY', 'x'],
    ['NPM_CONFIG__AUTH', 'x'],
    ['DB_PASSWORD', 'x'],
    ['SSH_AUTH_SOCK', '/tmp/ssh-x/agent.1'],
    ['DATABASE_URL', 'postgres://app:hunter2@db.example/app'],
  ])('%s is withheld', (name, value) => {
    expect(isSecretEnv(name, value)).toBe(true);
  });

  it.each([
    ['GIT_AUTHOR_NAME', 'Ada'],
    ['PATH', '/usr/bin'],
    ['KEYBOARD_LAYOUT', 'us'],
    ['HOME', '/home/me'],
    ['DATABASE_URL', 'postgres://db.example/app'],
  ])('%s is passed', (name, value) => {
    expect(isSecretEnv(name, value)).toBe(false);
  });

  it.skipIf(!BWRAP)('a sandboxed command sees none of them, and still sees the rest (real bwrap)', async () => {
    const l = layout();
    const saved = { ...process.env };
    Object.assign(process.env, {
      GITHUB_TOKEN: 'ghp_secret_value_123',
      DATABASE_URL: 'postgres://a:b@c/d',
      GIT_AUTHOR_NAME: 'Ada Lovelace',
    });
    try {
      const result = await bash(l, 'env', { sandbox: sandboxFor(l) });
      expect(result.content).not.toContain('ghp_secret_value_123');
      expect(result.content).not.toContain('postgres://a:b@c/d');
      expect(result.content).toContain('GIT_AUTHOR_NAME=Ada Lovelace');
      const plain = await bash(l, 'env');
      expect(plain.content).toContain('ghp_secret_value_123');
    } finally {
      for (const name of ['GITHUB_TOKEN', 'DATABASE_URL', 'GIT_AUTHOR_NAME']) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});

describe('credential files (issue 31, L6)', () => {
  it.skipIf(!BWRAP)("~/.npmrc, ~/.config/gh and Claude Code's login are not readable inside (real bwrap)", async () => {
    const l = layout();
    mkdirSync(path.join(l.home, '.config', 'gh'), { recursive: true });
    mkdirSync(path.join(l.home, '.claude'), { recursive: true });
    writeFileSync(path.join(l.home, '.npmrc'), '//registry.npmjs.org/:_authToken=npm_SECRET\n');
    writeFileSync(path.join(l.home, '.config', 'gh', 'hosts.yml'), 'oauth_token: gho_SECRET\n');
    writeFileSync(path.join(l.home, '.claude', '.credentials.json'), '{"token":"CLAUDE_SECRET"}\n');
    writeFileSync(path.join(l.home, '.claude', 'settings.json'), '{"visible":true}\n');
    const result = await bash(
      l,
      `cat ${l.home}/.npmrc ${l.home}/.config/gh/hosts.yml ${l.home}/.claude/.credentials.json ${l.home}/.claude/settings.json`,
      {
        sandbox: sandboxFor(l),
      },
    );
    expect(result.content).not.toMatch(/npm_SECRET|gho_SECRET|CLAUDE_SECRET/);
    expect(result.content).toContain('"visible":true');
  });
});

describe('shell histories (issue 38)', () => {
  it.skipIf(!BWRAP)('~/.bash_history and ~/.zsh_history are not readable inside; another dotfile still is (real bwrap)', async () => {
    const l = layout();
    writeFileSync(path.join(l.home, '.bash_history'), 'export GITHUB_TOKEN=ghp_HISTORY_SECRET\n');
    writeFileSync(path.join(l.home, '.zsh_history'), ': 1700000000:0;curl -H "Authorization: Bearer ZSH_SECRET"\n');
    writeFileSync(path.join(l.home, '.bashrc'), 'alias ll="ls -l" # visible\n');
    const result = await bash(l, `cat ${l.home}/.bash_history ${l.home}/.zsh_history ${l.home}/.bashrc`, { sandbox: sandboxFor(l) });
    expect(result.content).not.toMatch(/HISTORY_SECRET|ZSH_SECRET/);
    expect(result.content).toContain('# visible');
    // The control: outside the sandbox the same command reads the history.
    expect((await bash(l, `cat ${l.home}/.bash_history`)).content).toContain('ghp_HISTORY_SECRET');
  });
});
