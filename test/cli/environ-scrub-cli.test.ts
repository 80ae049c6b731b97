import { beforeAll, describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { assertBuilt } from '../sessions/cli.js';

/**
 * Issue 38: what xagent starts (bash, hooks, MCP servers: all its children) cannot read the API
 * key from xagent's own /proc/<pid>/environ. Deleting it from process.env left the bytes there.
 */

beforeAll(assertBuilt);
const api = useFakeApi();

const bashCall = (command: string): FakeResponse => ({ content: [{ type: 'tool_use', name: 'bash', input: { command } }] });
// The parent of the bash tool's shell is xagent itself.
const READ_PARENT_ENVIRON = `tr '\\0' '\\n' < /proc/$PPID/environ | grep -E '^ANTHROPIC_API_KEY=' ; echo "own:[$ANTHROPIC_API_KEY]"`;

describe.skipIf(process.platform !== 'linux')('issue 38: the API key in /proc/<xagent>/environ', () => {
  it('a child reading /proc/$PPID/environ finds the variable blanked, not the key; the request still carried it', async () => {
    const env = await api.start([bashCall(READ_PARENT_ENVIRON), { text: 'done' }]);
    const run = await runCli(['-p', 'look', '--allow', 'bash', '--output-format', 'json'], { env, cwd: api.workspace });
    expect(run.code, run.stderr).toBe(0);
    const results = JSON.stringify(api.fake.requests.at(-1)?.body);
    expect(results).not.toContain('sk-ant-test-key');
    expect(results).toMatch(/ANTHROPIC_API_KEY=\*{15}/);
    expect(results).toContain('own:[]');
    // The control: the key still authenticated every request (the fake records it redacted).
    expect(api.fake.requests.map((request) => request.headers.authorization)).toEqual(['Bearer [redacted]', 'Bearer [redacted]']);
  });

  it('the control: XAGENT_PASS_API_KEY=1 keeps the key for children, on purpose', async () => {
    const env = await api.start([bashCall(READ_PARENT_ENVIRON), { text: 'done' }]);
    const run = await runCli(['-p', 'look', '--allow', 'bash'], { env: { ...env, XAGENT_PASS_API_KEY: '1' }, cwd: api.workspace });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.stringify(api.fake.requests.at(-1)?.body)).toContain('ANTHROPIC_API_KEY=sk-ant-test-key');
  });
});
