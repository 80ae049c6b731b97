import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { everythingServer, sessionFiles, toolResults, writeMcpJson } from './support.js';

/**
 * A Streamable HTTP server made in the test with the SDK's own server classes, on node:http: one
 * tool, behind a bearer token configured as `${WEB_TOKEN}` in the headers. The token must reach
 * the server and never the session's records.
 */
const api = useFakeApi();
const TOKEN = 'tok-secret-5f2c9a81e7';
let http: Server | undefined;

afterEach(async () => {
  const server = http;
  http = undefined;
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startWebServer(): Promise<{ url: string; authorizations: string[] }> {
  const mcp = new McpServer({ name: 'web', version: '1.0.0' });
  const authorizations: string[] = [];
  mcp.registerTool('shout', { description: 'Upper-cases a text', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text: `${text.toUpperCase()} (you sent ${authorizations.at(-1)})` }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  http = createServer((req, res) => {
    authorizations.push(String(req.headers.authorization));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, authorizations };
}

const call = (id: string, name: string, input: Record<string, unknown>): FakeResponse => ({
  content: [{ type: 'tool_use', id, name, input }],
});

describe('MCP over Streamable HTTP, and secrets', () => {
  it('calls a tool of an HTTP server with the configured headers; the token stays out of every record', async () => {
    const web = await startWebServer();
    writeMcpJson(api.workspace, {
      web: { type: 'http', url: web.url, headers: { Authorization: 'Bearer ${WEB_TOKEN}' } },
      everything: everythingServer(api.workspace, { SERVER_SECRET: 'env-secret-9d41b7c3' }),
    });
    const env = await api.start([
      call('toolu_1', 'mcp__web__shout', { text: 'hi' }),
      call('toolu_2', 'mcp__everything__get-env', {}),
      { text: 'done' },
    ]);
    const run = await runCli(['-p', 'shout', '--cwd', api.workspace, '--allow', 'mcp__web', '--allow', 'mcp__everything'], {
      env: { ...env, WEB_TOKEN: TOKEN },
    });
    expect(run.code).toBe(0);
    expect(web.authorizations).toContain(`Bearer ${TOKEN}`);
    const [shout, envDump] = toolResults(api.fake.requests[2]?.body);
    expect(shout).toMatchObject({ content: 'HI (you sent [redacted])', is_error: false });
    // server-everything's get-env returns its environment: the configured value is taken out.
    expect(envDump?.content).toContain('SERVER_SECRET');
    expect(envDump?.content).not.toContain('env-secret-9d41b7c3');
    const files = sessionFiles(api.home);
    for (const text of [files.trace, files.transcript, files.audit, run.stdout, run.stderr, JSON.stringify(api.fake.requests)]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('env-secret-9d41b7c3');
    }
    expect(files.audit).toContain('[redacted]');
  });

  it('an HTTP server that refuses the connection fails to start with a clear line', async () => {
    writeMcpJson(api.workspace, { down: { type: 'http', url: `http://127.0.0.1:${await closedPort()}/mcp` } });
    const env = await api.start([{ text: 'ok' }]);
    const run = await runCli(['-p', 'hi', '--cwd', api.workspace], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/xagent: MCP server "down" failed to start: fetch failed \(.*ECONNREFUSED/);
  });
});
