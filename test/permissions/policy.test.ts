import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPermissionPolicy } from '../../src/permissions/policy.js';
import { createTerminalPrompt } from '../../src/terminal/prompt.js';
import type { PermissionPrompt } from '../../src/permissions/types.js';
import { loadSettings } from '../../src/settings/settings.js';
import { bash, call, rules } from './helpers.js';

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'xagent-policy-'));
});
afterEach(async () => rm(workspace, { recursive: true, force: true }));

const signal = () => new AbortController().signal;
const writer = { readOnly: false };

describe('createPermissionPolicy', () => {
  it('decides with the rules and the mode', () => {
    const policy = createPermissionPolicy({ mode: 'default', rules: rules({ allow: ['bash(npm test*)'] }), workspace });
    expect(policy.decide(bash('npm test'), writer).behavior).toBe('allow');
    expect(policy.decide(bash('npm test && rm -rf ~'), writer).behavior).toBe('ask');
    expect(policy.decide(call('read_file', { path: 'a' }), { readOnly: true }).behavior).toBe('allow');
  });

  it('without a prompt (no TTY) turns every ask into a denial that says so', async () => {
    const policy = createPermissionPolicy({ mode: 'default', rules: [], workspace });
    const c = bash('npm test');
    const pending = policy.decide(c, writer);
    const decision = await policy.ask(c, pending, signal());
    expect(decision).toMatchObject({ behavior: 'deny', decidedBy: 'no TTY to ask (default: bash asks)' });
    expect(decision.message).toContain('no terminal');
  });

  it('passes the question to the prompt and returns its answer', async () => {
    const seen: string[] = [];
    const prompt: PermissionPrompt = async ({ call: c, pending }) => {
      seen.push(`${c.name}: ${pending.decidedBy}`);
      return { decision: { behavior: 'deny', decidedBy: 'user: no' }, savedRules: [] };
    };
    const policy = createPermissionPolicy({ mode: 'default', rules: [], workspace, prompt });
    const c = bash('npm test');
    expect(await policy.ask(c, policy.decide(c, writer), signal())).toEqual({ behavior: 'deny', decidedBy: 'user: no' });
    expect(seen).toEqual(['bash: default: bash asks']);
  });

  it('applies a rule saved by "always" for the rest of the session and in the next one', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const policy = createPermissionPolicy({
      mode: 'default',
      rules: [],
      workspace,
      prompt: createTerminalPrompt({ input, output, workspace }),
    });
    const c = bash('npm test');
    const answer = policy.ask(c, policy.decide(c, writer), signal());
    input.write('a\n');
    expect((await answer).behavior).toBe('allow');

    const again = policy.decide(bash('npm test'), writer);
    expect(again.behavior).toBe('allow');
    expect(again.decidedBy).toBe(`allow rule "bash(npm test*)" from ${path.join(workspace, '.xagent', 'settings.local.json')}`);
    expect(policy.decide(bash('npm test --watch'), writer).behavior).toBe('allow');
    expect(policy.decide(bash('npm run build'), writer).behavior).toBe('ask');

    const next = createPermissionPolicy({
      mode: 'default',
      rules: loadSettings({ workspace, home: path.join(workspace, 'home') }).rules,
      workspace,
    });
    expect(next.decide(bash('npm test'), writer).behavior).toBe('allow');
  });
});
