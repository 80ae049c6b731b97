import { describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { jsonLines, runCli } from '../support/run-cli.js';
import { processesWith, sessionFiles, toolResults, writeMcpJson } from './support.js';
import { writeTinyServer } from './tiny-server.js';

/** Servers that fail: the user gets a clear line, the model an is_error result, the task goes on, nothing is left running. */
const api = useFakeApi();
const call = (id: string, name: string): FakeResponse => ({ content: [{ type: 'tool_use', id, name, input: {} }] });
const tiny = (options: { banner?: boolean } = {}) => ({
  command: process.execPath,
  args: [writeTinyServer(api.workspace, { marker: api.workspace, ...options })],
});

describe('MCP servers that fail', () => {
  it('a command that does not exist: one clear line, no tools from it, the task still runs', async () => {
    writeMcpJson(api.workspace, { ghost: { command: 'xagent-no-such-command-here' }, tiny: tiny() });
    const env = await api.start([{ text: 'still here' }]);
    const run = await runCli(['-p', 'hi', '--cwd', api.workspace], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('still here\n');
    expect(run.stderr).toContain('xagent: MCP server "ghost" failed to start: cannot run "xagent-no-such-command-here"');
    const names = (api.fake.requests[0]?.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names.filter((n) => n.startsWith('mcp__'))).toEqual(['mcp__tiny__hello', 'mcp__tiny__boom', 'mcp__tiny__garbage']);
    expect(processesWith(api.workspace)).toEqual([]);
  });

  it('a server that crashes mid-call: is_error naming the server and its stderr; not restarted; its grandchild is gone', async () => {
    writeMcpJson(api.workspace, { tiny: tiny() });
    const env = await api.start([call('toolu_1', 'mcp__tiny__boom'), call('toolu_2', 'mcp__tiny__hello'), { text: 'noted' }]);
    const run = await runCli(['-p', 'boom', '--cwd', api.workspace, '--allow', 'mcp__tiny'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('noted\n');
    const [crash] = toolResults(api.fake.requests[1]?.body);
    expect(crash).toMatchObject({ is_error: true });
    expect(crash?.content).toContain('MCP server "tiny" stopped during the call to mcp__tiny__boom: it exited with code 3');
    expect(crash?.content).toContain('fatal: boom went off');
    expect(crash?.content).toContain('not restarted');
    const [, after] = toolResults(api.fake.requests[2]?.body);
    expect(after).toMatchObject({ is_error: true });
    expect(after?.content).toContain('MCP server "tiny" is not running');
    expect(processesWith(api.workspace)).toEqual([]);
    // The transcript is whole: every tool_use has its result.
    expect(jsonLines(sessionFiles(api.home).transcript).length).toBeGreaterThanOrEqual(5);
  });

  it('a server that answers with garbage: is_error saying so, the server is stopped, the task goes on', async () => {
    writeMcpJson(api.workspace, { tiny: tiny() });
    const env = await api.start([call('toolu_1', 'mcp__tiny__garbage'), { text: 'ok' }]);
    const run = await runCli(['-p', 'garbage', '--cwd', api.workspace, '--allow', 'mcp__tiny'], { env });
    expect(run.code).toBe(0);
    const [result] = toolResults(api.fake.requests[1]?.body);
    expect(result).toMatchObject({ is_error: true });
    expect(result?.content).toContain('MCP server "tiny" stopped during the call to mcp__tiny__garbage');
    expect(result?.content).toContain('not a JSON-RPC message ("this is not json")');
    expect(processesWith(api.workspace)).toEqual([]);
  });

  it('a server that prints garbage on stdout at start fails to start, with what it printed', async () => {
    writeMcpJson(api.workspace, { tiny: tiny({ banner: true }) });
    const env = await api.start([{ text: 'fine' }]);
    const run = await runCli(['-p', 'hi', '--cwd', api.workspace], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('xagent: MCP server "tiny" failed to start: it sent something on stdout that is not a JSON-RPC message');
    expect(run.stderr).toContain('Welcome to the tiny server!');
    expect(processesWith(api.workspace)).toEqual([]);
  });

  it('a server that never answers is given up on at MCP_TIMEOUT', async () => {
    writeMcpJson(api.workspace, { mute: { command: 'sh', args: ['-c', `sleep 300; : ${api.workspace}`] } });
    const env = await api.start([{ text: 'fine' }]);
    const run = await runCli(['-p', 'hi', '--cwd', api.workspace], { env: { ...env, MCP_TIMEOUT: '1s' } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('xagent: MCP server "mute" failed to start: it did not answer within 1000 ms (MCP_TIMEOUT)');
    expect(processesWith(api.workspace)).toEqual([]);
  });
});
