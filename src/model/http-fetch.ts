import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

// Kept-alive connections, as fetch keeps them: every round of a session reuses one socket.
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * A `fetch` for the Anthropic SDK (its `fetch` option) made on node:http: the SDK still builds
 * every request, reads every response and maps every error; only the socket work is Node's own
 * HTTP client instead of undici's. Per request that is ~1 ms less CPU here, and no WebAssembly
 * HTTP parser to compile (bench/README.md). Bodies other than a string fall back to fetch.
 * @example new BaseAnthropic({ apiKey, fetch: nodeHttpFetch });
 */
export async function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const body = init.body;
  if (input instanceof Request || (body !== undefined && body !== null && typeof body !== 'string')) return fetch(input, init);
  const url = new URL(input);
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') return fetch(input, init);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  return new Promise<Response>((resolve, reject) => {
    const options = { method: init.method ?? 'GET', headers, agent: secure ? agents.https : agents.http, ...(signal ? { signal } : {}) };
    const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
      const status = res.statusCode ?? 502;
      // A Response may not carry a body for these statuses (the Fetch standard's "null body status").
      const noBody = status === 101 || status === 204 || status === 205 || status === 304;
      if (noBody) res.resume();
      resolve(
        new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
          status,
          statusText: res.statusMessage ?? '',
          headers: headersOf(res),
        }),
      );
    });
    // fetch rejects with a TypeError whose cause is the socket error; the SDK wraps either alike.
    req.on('error', (error) => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })));
    req.end(body ?? undefined);
  });
}
