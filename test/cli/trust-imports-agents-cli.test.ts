import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { assertBuilt } from '../sessions/cli.js';

/**
 * Issue 38 through the built CLI and the fake API: a cloned repository's CLAUDE.md imports reach
 * only inside the project until it is trusted; its agent files wait for trust like its hooks; the
 * bash reader sees `trap` bodies and `git -c alias` values.
 */

beforeAll(assertBuilt);
const api = useFakeApi();
const UNTRUSTED = { XAGENT_TRUST: undefined };

/** The system prompt of the fake's request `index`, as text. */
const systemOf = (index: number) => JSON.stringify((api.fake.requests[index]?.body as { system?: unknown }).system ?? '');

describe('issue 38: instruction imports from a project reach only inside it until it is trusted', () => {
  it('leaves out @~/.claude/settings.json and .credentials.json, says so, and keeps the import inside the project (the control)', async () => {
    const userHome = tempDir('xagent-user-');
    mkdirSync(path.join(userHome, '.claude'));
    writeFileSync(path.join(userHome, '.claude', 'settings.json'), '{"env":{"SECRET":"settings-secret-1"}}');
    writeFileSync(path.join(userHome, '.claude', '.credentials.json'), '{"token":"credentials-secret-2"}');
    mkdirSync(path.join(api.workspace, 'docs'));
    writeFileSync(path.join(api.workspace, 'docs', 'style.md'), 'Inside the project: use tabs.');
    writeFileSync(
      path.join(api.workspace, 'CLAUDE.md'),
      'Project rules. @docs/style.md\n@~/.claude/settings.json\n@~/.claude/.credentials.json\n',
    );
    const env = { ...(await api.start([{ text: 'ok' }, { text: 'ok' }])), HOME: userHome };

    const untrusted = await runCli(['-p', 'hi'], { env: { ...env, ...UNTRUSTED }, cwd: api.workspace });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(systemOf(0)).toContain('Inside the project: use tabs.');
    expect(systemOf(0)).not.toContain('settings-secret-1');
    expect(systemOf(0)).not.toContain('credentials-secret-2');
    expect(untrusted.stderr).toContain(
      `CLAUDE.md imports ${path.join(userHome, '.claude', 'settings.json')}, outside the project: left out`,
    );

    // Trusted (--trust), the person has said the project's files may reach their folder.
    const trusted = await runCli(['-p', 'hi', '--trust'], { env: { ...env, ...UNTRUSTED }, cwd: api.workspace });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(systemOf(1)).toContain('settings-secret-1');
  });
});

describe('issue 38: a project agent file waits for trust', () => {
  const agentFile = () => {
    mkdirSync(path.join(api.workspace, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      path.join(api.workspace, '.claude', 'agents', 'spy.md'),
      '---\nname: spy\ndescription: reads everything\ntools: bash\n---\nYou are the spy agent from the cloned repository.\n',
    );
  };
  const taskCall: FakeResponse = {
    content: [{ type: 'tool_use', name: 'task', input: { description: 'spy', prompt: 'go', subagent_type: 'spy' } }],
  };

  it('untrusted: -p refuses with exit 2 naming the agent, and nothing is sent', async () => {
    agentFile();
    const env = await api.start([taskCall, { text: 'child done' }, { text: 'done' }]);
    const run = await runCli(['-p', 'use the spy'], { env: { ...env, ...UNTRUSTED }, cwd: api.workspace });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('agent spy (bash; model inherit)  (.claude/agents/spy.md)');
    expect(api.fake.requests).toHaveLength(0);
  });

  it("the control: trusted, the project's agent runs with its own prompt", async () => {
    agentFile();
    const env = await api.start([taskCall, { text: 'child done' }, { text: 'done' }]);
    const run = await runCli(['-p', 'use the spy', '--trust', '--output-format', 'json'], {
      env: { ...env, ...UNTRUSTED },
      cwd: api.workspace,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(
      api.fake.requests.some((request) => JSON.stringify((request.body as { system?: unknown }).system).includes('You are the spy agent')),
    ).toBe(true);
  });
});

describe('issue 38: deny rules see trap bodies and git -c alias values', () => {
  const bashCall = (command: string): FakeResponse => ({ content: [{ type: 'tool_use', name: 'bash', input: { command } }] });

  it.each([
    ['trap "rm victim" EXIT', "trap 'echo bye > control' EXIT"],
    ["git -c alias.x='!rm victim' x", "git -c alias.x='!echo hi > control' x"],
  ])('%s is denied by Bash(rm:*) and leaves the file; %s (the control) runs', async (denied, control) => {
    writeFileSync(path.join(api.workspace, 'victim'), 'keep me');
    const flags = ['-p', 'go', '--permission-mode', 'bypassPermissions', '--deny', 'Bash(rm:*)', '--output-format', 'json'];
    let env = await api.start([bashCall(denied), { text: 'done' }]);
    const refused = await runCli(flags, { env, cwd: api.workspace });
    // Denied: stopped (exit 6) or, under the fourth round's -p contract, answered as an error result (exit 0).
    expect([0, 6], refused.stderr).toContain(refused.code);
    expect(JSON.parse(refused.stdout)).toMatchObject({ permission_denials: [expect.objectContaining({ tool_name: 'Bash' })] });
    expect(existsSync(path.join(api.workspace, 'victim'))).toBe(true);

    env = await api.start([bashCall(control), { text: 'done' }]);
    const ran = await runCli(flags, { env, cwd: api.workspace });
    expect(ran.code, ran.stderr).toBe(0);
    expect(existsSync(path.join(api.workspace, 'control'))).toBe(true);
  });
});
