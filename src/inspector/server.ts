import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InspectorHistory } from './history.js';
import type { InspectorRecord } from './records.js';
import { inspectorPageDir, readPageFile } from './static-files.js';

export interface InspectorServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  history: InspectorHistory;
  /** The statechart layout for the page (`/api/chart`), computed once on first request. */
  chart?: () => unknown | Promise<unknown>;
  /** Where index.html, app.js and style.css are; the repository's `inspector/` by default. */
  pageDir?: string;
  /** Seconds between SSE keep-alive comments. */
  keepAliveMs?: number;
  /** The token every request needs; default a new random one. A durable task keeps one over its attempts (src/restate/). */
  token?: string;
}

export interface InspectorServer {
  /** The page's address with the token: what to open in a browser. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
} as const;

/**
 * How long live records are gathered before they go to an event stream, as one `records` event:
 * 50 ms is 20 pictures a second, as fast as a person follows a page. A thousand-round run sends a
 * few dozen writes, and the page parses and draws a few dozen times, not once per record.
 */
const FLUSH_MS = 50;

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function refuse(res: ServerResponse, status: number, why: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${why}\n`);
}

function sendJson(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
}

/**
 * Serves the inspector on 127.0.0.1 only. Every request needs the random token (`?token=` on the
 * page, then the cookie it sets or an `X-Inspector-Token` header); a foreign `Origin` or a `Host`
 * that is not this loopback address (DNS rebinding) is refused with 403.
 * @example const server = await startInspectorServer({ history }); console.error(`Inspector: ${server.url}`);
 */
export async function startInspectorServer(options: InspectorServerOptions): Promise<InspectorServer> {
  const { history } = options;
  const token = options.token ?? randomBytes(24).toString('base64url');
  const pageDir = options.pageDir ?? inspectorPageDir();
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  /** Each open event stream, with what writes its gathered records now. */
  const streams = new Map<ServerResponse, () => void>();
  let chart: Promise<unknown> | undefined;
  let port = 0;
  const cookieName = () => `xagent_inspector_${port}`;

  const authorize = (req: IncomingMessage, url: URL): string | null => {
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    if (!hosts.includes(req.headers.host ?? '')) return 'wrong Host header: the inspector answers only to 127.0.0.1';
    const origin = req.headers.origin;
    if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`)) return 'cross-origin requests are refused';
    if (req.headers['sec-fetch-site'] === 'cross-site') return 'cross-site requests are refused';
    const given =
      url.searchParams.get('token') ??
      (req.headers['x-inspector-token'] as string | undefined) ??
      cookieValue(req.headers.cookie, cookieName());
    if (!sameToken(given ?? undefined, token)) return 'missing or wrong token: open the URL the CLI printed';
    return null;
  };

  const streamEvents = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    });
    // A reconnecting EventSource says what it has; otherwise the whole history comes first.
    const lastId = Number(req.headers['last-event-id']);
    const from = Number.isInteger(lastId) && lastId >= 0 ? lastId + 1 : 0;
    const backlog = history.records.slice(from);
    res.write(`retry: 1000\nid: ${history.records.length - 1}\nevent: history\ndata: [${backlog.map(history.json).join(',')}]\n\n`);
    // A record per socket write cost the engine ~60 µs a round (a loopback write wakes the page's
    // process), and a write call per record still ~25 µs while corked; an event per record made the
    // page parse and draw per record. The records of FLUSH_MS leave as one event in one write.
    let pending: InspectorRecord[] = [];
    let flushTimer: NodeJS.Timeout | undefined;
    const flush = () => {
      flushTimer = undefined;
      const records = pending;
      pending = [];
      const last = records[records.length - 1];
      if (!res.destroyed && last) res.write(`id: ${last.i}\nevent: records\ndata: [${records.map(history.json).join(',')}]\n\n`);
    };
    const flushNow = () => {
      if (flushTimer === undefined) return;
      clearTimeout(flushTimer);
      flush();
    };
    const unsubscribe = history.subscribe((record) => {
      pending.push(record);
      flushTimer ??= setTimeout(flush, FLUSH_MS);
    });
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMs);
    streams.set(res, flushNow);
    const end = () => {
      clearInterval(keepAlive);
      if (flushTimer) clearTimeout(flushTimer);
      unsubscribe();
      streams.delete(res);
    };
    req.on('close', end);
    res.on('error', end);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refusal = authorize(req, url);
    if (refusal) return refuse(res, 403, refusal);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'only GET');
    const headers = { ...SECURITY_HEADERS, 'Set-Cookie': `${cookieName()}=${token}; HttpOnly; SameSite=Strict; Path=/` };
    switch (url.pathname) {
      case '/api/history':
        return sendJson(res, history.records);
      case '/api/chart':
        chart ??= Promise.resolve(options.chart?.() ?? null);
        return void chart.then(
          (value) => sendJson(res, value),
          (error: unknown) => refuse(res, 500, `chart layout failed: ${error instanceof Error ? error.message : String(error)}`),
        );
      case '/api/events':
        return streamEvents(req, res);
      default: {
        const file = readPageFile(pageDir, url.pathname === '/' ? 'index.html' : url.pathname.slice(1));
        if (!file) return refuse(res, 404, 'not found');
        res.writeHead(200, { ...headers, 'Content-Type': file.type });
        return res.end(req.method === 'HEAD' ? undefined : file.body);
      }
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        // The records gathered last (the result among them) reach the page before the stream ends.
        for (const [res, flushNow] of streams) {
          flushNow();
          res.end();
        }
        streams.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
