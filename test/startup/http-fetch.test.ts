import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from '../../src/startup/http-fetch.js';
import { LiteHeaders } from '../../src/startup/lite-headers.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; sockets: Set<unknown> }> {
  const sockets = new Set<unknown>();
  server = createServer(handler);
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
}

describe('nodeHttpFetch (the SDK transport)', () => {
  it('sends method, headers and body, and streams the response with its status and headers', async () => {
    const { url } = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        res.writeHead(201, {
          'content-type': 'text/event-stream',
          'request-id': 'req_1',
          'x-echo': `${req.method} ${req.headers['x-api-key']}`,
        });
        res.write('data: one\n\n');
        setTimeout(() => res.end(`data: ${body}\n\n`), 20);
      });
    });
    const response = await nodeHttpFetch(`${url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'k1' }, body: '{"a":1}' });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('request-id')).toBe('req_1');
    expect(response.headers.get('x-echo')).toBe('POST k1');
    expect(await response.text()).toBe('data: one\n\ndata: {"a":1}\n\n');
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow('already been read');
  });

  it('sends headers given as LiteHeaders, undici Headers or pairs, and reads repeated response headers', async () => {
    const { url } = await serve((req, res) => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.setHeader('x-seen', `${req.headers['x-one']}|${req.headers['x-two']}`);
      res.end();
    });
    for (const headers of [
      new LiteHeaders({ 'X-One': '1', 'x-two': '2' }),
      new Headers({ 'x-one': '1', 'X-Two': '2' }),
      [
        ['x-one', '1'],
        ['x-two', '2'],
      ] as [string, string][],
    ]) {
      const response = await nodeHttpFetch(url, { headers });
      expect(response.headers.get('x-seen')).toBe('1|2');
      expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    }
  });

  it('answers 204 with no body, as a Response would', async () => {
    const { url } = await serve((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    const response = await nodeHttpFetch(url);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('reuses one kept-alive connection for consecutive requests', async () => {
    const { url, sockets } = await serve((_req, res) => res.end('ok'));
    for (let i = 0; i < 3; i++) expect(await (await nodeHttpFetch(url)).text()).toBe('ok');
    expect(sockets.size).toBe(1);
  });

  it('rejects like fetch (a TypeError with the socket error as cause) when nothing listens', async () => {
    const { url } = await serve(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    const error = await nodeHttpFetch(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError & { cause: { code: string } }).cause.code).toBe('ECONNREFUSED');
  });

  it('rejects with the abort reason when the signal aborts before the answer, and errors the body when it aborts during it', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/slow') return; // never answers
      res.write('first');
    });
    const early = new AbortController();
    const pending = nodeHttpFetch(`${url}/slow`, { signal: early.signal });
    early.abort(new Error('stopped by the user'));
    await expect(pending).rejects.toThrow('stopped by the user');

    const late = new AbortController();
    const response = await nodeHttpFetch(url, { signal: late.signal });
    // The body is node:http's stream (the SDK iterates it), not a WHATWG stream.
    const chunks = (response.body as unknown as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    expect(String((await chunks.next()).value)).toBe('first');
    late.abort();
    await expect(chunks.next()).rejects.toThrow();
  });
});

describe('nodeHttpFetch on a kept-alive socket the server closed', () => {
  it('sends the request again on a new socket instead of failing (the server dropped the idle connection as the request came)', async () => {
    // The server answers the first request of each connection, and drops the connection when a second
    // request comes on it: what a client sees when a server's keep-alive timeout ends as it reuses the socket.
    const seen: string[] = [];
    const connections = new WeakMap<object, number>();
    const { url } = await serve((req, res) => {
      const n = (connections.get(req.socket) ?? 0) + 1;
      connections.set(req.socket, n);
      if (n > 1) {
        req.socket.destroy();
        return;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push(body);
        res.end(`answer to ${body}`);
      });
    });
    const first = await nodeHttpFetch(`${url}/v1/messages`, { method: 'POST', body: 'one' });
    expect(await first.text()).toBe('answer to one');
    // The next request goes out on the kept-alive socket, which the server drops: sent again, answered.
    const second = await nodeHttpFetch(`${url}/v1/messages`, { method: 'POST', body: 'two' });
    expect(await second.text()).toBe('answer to two');
    expect(seen).toEqual(['one', 'two']);
  });

  it('still fails a request whose fresh socket is refused', async () => {
    const { url } = await serve((_req, res) => res.end());
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    await expect(nodeHttpFetch(`${url}/v1/messages`, { method: 'POST', body: 'x' })).rejects.toThrow('fetch failed');
  });
});
