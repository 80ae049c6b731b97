import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { toolResults, writeMcpJson } from './support.js';

/**
 * Claude Code's `"type": "sse"` servers (the older HTTP+SSE transport): a server made in the test
 * with the SDK's SSEServerTransport, reached through the SDK's SSE client, with its header.
 */
const api = useFakeApi();
const TOKEN = 'sse-token-7c1e93aa52';
let http: Server | undefined;

afterEach(async () => {
  const server = http;
  http = undefined;
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function startSseServer(): Promise<{ url: string; authorizations: string[] }> {
  const authorizations: string[] = [];
  const transports = new Map<string, SSEServerTransport>();
  http = createServer((req, res) => {
    authorizations.push(String(req.headers.authorization));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      const mcp = new McpServer({ name: 'legacy', version: '1.0.0' });
      mcp.registerTool('echo', { description: 'Echoes a text', inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: 'text', text: `echo: ${text}` }],
      }));
      void mcp.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && transport) {
      void transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`, authorizations };
}

describe('MCP over HTTP+SSE ("type": "sse")', () => {
  it('calls a tool of an sse server with the configured header', async () => {
    const server = await startSseServer();
    writeMcpJson(api.workspace, { legacy: { type: 'sse', url: server.url, headers: { Authorization: 'Bearer ${SSE_TOKEN}' } } });
    const env = await api.start([
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__legacy__echo', input: { text: 'hi' } }] },
      { text: 'done' },
    ]);
    const run = await runCli(['-p', 'echo', '--cwd', api.workspace, '--allowedTools', 'mcp__legacy__*'], {
      env: { ...env, SSE_TOKEN: TOKEN },
    });
    expect(run.stderr).not.toContain('failed to start');
    expect(run.code).toBe(0);
    expect(server.authorizations.length).toBeGreaterThanOrEqual(2);
    expect(server.authorizations.every((a) => a === `Bearer ${TOKEN}`)).toBe(true);
    expect(toolResults(api.fake.requests[1]?.body)[0]).toMatchObject({ content: 'echo: hi', is_error: false });
  });
});
