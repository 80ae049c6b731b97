import { describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { jsonLines, runCli } from '../support/run-cli.js';
import { everythingServer, processesWith, sessionFiles, toolResults, writeMcpJson } from './support.js';

/**
 * The real server-everything over stdio, through the built CLI and the fake API: its tools reach
 * the model as mcp__everything__*, calls go through validation, permissions, trace and audit like
 * a built-in's, and nothing of the server is left running afterwards.
 */
const api = useFakeApi();
const call = (id: string, name: string, input: Record<string, unknown>): FakeResponse => ({
  content: [{ type: 'tool_use', id, name, input }],
});

describe('MCP over stdio: server-everything', () => {
  it('offers its tools to the model and runs echo and get-sum with an allow rule', async () => {
    writeMcpJson(api.workspace, { everything: everythingServer(api.workspace) });
    const env = await api.start([
      call('toolu_1', 'mcp__everything__echo', { message: 'hello mcp' }),
      call('toolu_2', 'mcp__everything__get-sum', { a: 2, b: 40 }),
      { text: 'done' },
    ]);
    const run = await runCli(['-p', 'use the tools', '--cwd', api.workspace, '--allow', 'mcp__everything', '--output-format', 'json'], {
      env,
    });
    expect(run.stderr).not.toMatch(/failed to start/);
    expect(run.code).toBe(0);
    const first = api.fake.requests[0]?.body as { tools: Array<{ name: string; description: string; input_schema: unknown }> };
    const echo = first.tools.find((t) => t.name === 'mcp__everything__echo');
    expect(echo?.description).toBe('Echoes back the input string');
    expect(echo?.input_schema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
    expect(first.tools.map((t) => t.name)).toContain('read_file');
    const results = toolResults(api.fake.requests[2]?.body);
    expect(results).toMatchObject([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Echo: hello mcp', is_error: false },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'The sum of 2 and 40 is 42.', is_error: false },
    ]);
    expect(jsonLines(run.stdout)[0]).toMatchObject({ reason: 'final_answer', tool_calls: 2 });
    // Exactly like a built-in: a trace line for the call's states, the permission decision named, an audit line.
    const files = sessionFiles(api.home);
    const trace = jsonLines(files.trace);
    const executed = trace.filter((line) => line.state === 'execute_tool.running');
    expect(executed.map((line) => [(line.call as { name: string }).name, line.decision])).toEqual([
      ['mcp__everything__echo', { behavior: 'allow', decidedBy: 'allow rule "mcp__everything" from --allow' }],
      ['mcp__everything__get-sum', { behavior: 'allow', decidedBy: 'allow rule "mcp__everything" from --allow' }],
    ]);
    const audit = jsonLines(files.audit);
    expect(audit.map((line) => (line.call as { name: string }).name)).toEqual(['mcp__everything__echo', 'mcp__everything__get-sum']);
    expect(audit[0]).toMatchObject({ is_error: false, content: 'Echo: hello mcp' });
    expect(processesWith(api.workspace)).toEqual([]);
  });

  it('asks by default, even for a read-only tool: with no terminal to ask, the call is denied and never runs', async () => {
    writeMcpJson(api.workspace, { everything: everythingServer(api.workspace) });
    const env = await api.start([call('toolu_1', 'mcp__everything__echo', { message: 'hi' })]);
    const run = await runCli(['-p', 'echo', '--cwd', api.workspace, '--output-format', 'json', '--stop-on-denial'], { env });
    expect(run.code).toBe(6);
    expect(jsonLines(run.stdout)[0]).toMatchObject({ reason: 'permission_denied' });
    const files = sessionFiles(api.home);
    expect(files.trace).toContain('default: MCP tools ask (mcp__everything__echo)');
    expect(files.audit).toBe('');
    expect(files.transcript).not.toContain('Echo: hi');
  });

  it('validates input against the server schema before calling (ajv, like a built-in)', async () => {
    writeMcpJson(api.workspace, { everything: everythingServer(api.workspace) });
    const env = await api.start([call('toolu_1', 'mcp__everything__get-sum', { a: 'two', b: 3 }), { text: 'ok' }]);
    const run = await runCli(['-p', 'sum', '--cwd', api.workspace, '--allow', 'mcp__everything__get-sum'], { env });
    expect(run.code).toBe(0);
    const [result] = toolResults(api.fake.requests[1]?.body);
    expect(result).toMatchObject({ is_error: true });
    expect(result?.content).toContain('Invalid input for mcp__everything__get-sum: input.a: must be number');
  });

  it('keeps a tool error as an is_error result with the server message', async () => {
    writeMcpJson(api.workspace, { everything: everythingServer(api.workspace) });
    const env = await api.start([
      call('toolu_1', 'mcp__everything__gzip-file-as-resource', { name: 'x.gz', data: 'file:///etc/hostname', outputType: 'resource' }),
      { text: 'ok' },
    ]);
    const run = await runCli(['-p', 'gzip', '--cwd', api.workspace, '--allow', 'mcp__everything'], { env });
    expect(run.code).toBe(0);
    const [result] = toolResults(api.fake.requests[1]?.body);
    expect(result).toMatchObject({ is_error: true });
    expect(result?.content).toMatch(/Unsupported URL protocol/);
  });

  it('describes an image instead of sending base64, and sends structured content as JSON', async () => {
    writeMcpJson(api.workspace, { everything: everythingServer(api.workspace) });
    const env = await api.start([
      call('toolu_1', 'mcp__everything__get-tiny-image', {}),
      call('toolu_2', 'mcp__everything__get-structured-content', { location: 'New York' }),
      { text: 'ok' },
    ]);
    const run = await runCli(['-p', 'image', '--cwd', api.workspace, '--allow', 'mcp__everything'], { env });
    expect(run.code).toBe(0);
    const [image, structured] = toolResults(api.fake.requests[2]?.body);
    expect(image?.content).toMatch(/\[image: image\/png, \d+ bytes\]/);
    expect(image?.content).not.toMatch(/iVBOR/);
    expect(structured?.is_error).toBe(false);
    expect(structured?.content).toMatch(/"temperature"|New York|weather/i);
  });

  it('a slow call past MCP_TOOL_TIMEOUT is an is_error result, the task goes on, and no process is left', async () => {
    writeMcpJson(api.workspace, { slow: everythingServer(api.workspace) });
    const env = await api.start([
      call('toolu_1', 'mcp__slow__trigger-long-running-operation', { duration: 60, steps: 2 }),
      { text: 'gave up' },
    ]);
    const run = await runCli(['-p', 'wait', '--cwd', api.workspace, '--allow', 'mcp__slow'], { env: { ...env, MCP_TOOL_TIMEOUT: '1500' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('gave up');
    const [result] = toolResults(api.fake.requests[1]?.body);
    expect(result).toMatchObject({ is_error: true });
    expect(result?.content).toContain(
      'MCP server "slow" did not answer mcp__slow__trigger-long-running-operation within 1500 ms (MCP_TOOL_TIMEOUT)',
    );
    expect(processesWith(api.workspace)).toEqual([]);
  });

  it('--timeout stops a task waiting on a slow call, and the server is stopped', async () => {
    writeMcpJson(api.workspace, { slow: everythingServer(api.workspace) });
    const env = await api.start([call('toolu_1', 'mcp__slow__trigger-long-running-operation', { duration: 60, steps: 2 })]);
    const run = await runCli(['-p', 'wait', '--cwd', api.workspace, '--allow', 'mcp__slow', '--timeout', '3s', '--output-format', 'json'], {
      env,
    });
    expect(jsonLines(run.stdout)[0]).toMatchObject({ reason: 'timeout' });
    expect(processesWith(api.workspace)).toEqual([]);
  });

  it('Ctrl-C during a slow call stops the task and every server process', async () => {
    writeMcpJson(api.workspace, { slow: everythingServer(api.workspace) });
    const env = await api.start([call('toolu_1', 'mcp__slow__trigger-long-running-operation', { duration: 60, steps: 2 })]);
    let sent = false;
    const run = await runCli(['-p', 'wait', '--cwd', api.workspace, '--allow', 'mcp__slow', '--output-format', 'stream-json'], {
      env,
      onOutput: (child, output) => {
        if (!sent && output.stdout.includes('"tool_start"')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(sent).toBe(true);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'result', reason: 'user_abort' });
    expect(processesWith(api.workspace)).toEqual([]);
  });
});
