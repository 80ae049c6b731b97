import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { invalidAgentLines, startAcp, until } from './acp-harness.js';

const api = useFakeApi();

describe('xagent acp on malformed input', () => {
  it('answers each bad line with a JSON-RPC error and keeps serving', async () => {
    const env = await api.start([]);
    const acp = startAcp([], env);
    /** Writes one line and resolves with the agent's answer to it (the next line on stdout). */
    const send = async (line: string): Promise<Record<string, unknown>> => {
      const before = acp.stdoutLines.length;
      acp.child.stdin.write(`${line}\n`);
      await until(() => acp.stdoutLines.length > before, `an answer to ${line}`);
      return JSON.parse(acp.stdoutLines[before] ?? '') as Record<string, unknown>;
    };
    const request = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

    expect(await send('this is not json')).toMatchObject({ id: null, error: { code: -32700 } });
    // Before initialize, nothing else is served.
    expect(await send(request(1, 'session/new', { cwd: api.workspace, mcpServers: [] }))).toMatchObject({ id: 1, error: { code: -32600 } });
    // A version older than v1 cannot be spoken; a malformed one is invalid params.
    expect(await send(request(2, 'initialize', { protocolVersion: 0, clientCapabilities: {} }))).toMatchObject({
      id: 2,
      error: { code: -32022, data: { requested: 0, supported: [1] } },
    });
    expect(await send(request(3, 'initialize', { protocolVersion: 'one' }))).toMatchObject({ id: 3, error: { code: -32602 } });
    // A newer client is answered with v1, the spec's negotiation.
    expect(await send(request(4, 'initialize', { protocolVersion: 7, clientCapabilities: {} }))).toMatchObject({
      id: 4,
      result: { protocolVersion: 1 },
    });
    expect(await send(request(5, 'session/fly', {}))).toMatchObject({ id: 5, error: { code: -32601 } });
    expect(
      await send(request(6, 'session/prompt', { sessionId: 'no-such-session', prompt: [{ type: 'text', text: 'hi' }] })),
    ).toMatchObject({
      id: 6,
      error: { code: -32002 },
    });
    expect(await send(request(7, 'session/new', { cwd: 'relative/dir', mcpServers: [] }))).toMatchObject({
      id: 7,
      error: { code: -32602, message: expect.stringContaining('absolute') },
    });
    expect(await send(request(8, 'session/load', { sessionId: 'not-recorded', cwd: api.workspace, mcpServers: [] }))).toMatchObject({
      id: 8,
      error: { code: -32002 },
    });
    const created = await send(request(9, 'session/new', { cwd: api.workspace, mcpServers: [] }));
    const { sessionId } = created.result as { sessionId: string };
    expect(
      await send(request(10, 'session/prompt', { sessionId, prompt: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] })),
    ).toMatchObject({ id: 10, error: { code: -32602, message: expect.stringContaining('image') } });
    expect(await send(request(11, 'session/set_mode', { sessionId, modeId: 'yolo' }))).toMatchObject({ id: 11, error: { code: -32602 } });
    expect(await send(request(12, 'session/set_mode', { sessionId, modeId: 'plan' }))).toMatchObject({ id: 12, result: {} });

    acp.child.stdin.end();
    expect(await acp.exited).toBe(0);
    expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    // The check itself can fail: a message the schema does not accept is reported.
    expect(invalidAgentLines(['{"jsonrpc":"2.0","method":"session/update","params":{"update":{}}}', 'hello'])).toHaveLength(2);
    // Nothing went to the model.
    expect(api.fake.requests).toEqual([]);
  }, 60_000);
});
