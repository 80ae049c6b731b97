import { Agent as HttpAgent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HttpResponse } from './http-response.js';
import { LiteHeaders } from './lite-headers.js';
import { descriptorLimit } from '../system/descriptors.js';

// Kept-alive connections, as fetch keeps them: every round of a session reuses one socket. At
// most half the process's descriptors are sockets to one host: a thousand tasks at once queue for
// a socket instead of failing with EMFILE, and the files they write still find descriptors.
const limit = descriptorLimit();
const maxSockets = limit === null ? Number.POSITIVE_INFINITY : Math.max(8, Math.floor(limit / 2));
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets }),
  https: new HttpsAgent({ keepAlive: true, maxSockets }),
};

/** Request headers of any `HeadersInit` shape (our LiteHeaders, undici's Headers, pairs, a record) as node:http takes them. */
function outgoingHeaders(init: RequestInit['headers']): OutgoingHttpHeaders {
  // The SDK's own headers (LiteHeaders in the bundle) are already lower-case and combined.
  return (LiteHeaders.isLite(init) ? init : new LiteHeaders(init)).toOutgoing();
}

/**
 * A `fetch` for the Anthropic SDK (its `fetch` option) made on node:http: the SDK still builds
 * every request, reads every response and maps every error; only the socket work is Node's own
 * HTTP client instead of undici's, and the response is an `HttpResponse` whose body is the Node
 * stream itself (no WHATWG stream, no undici loaded). Per request that is ~1 ms less CPU than
 * fetch here, and no WebAssembly HTTP parser to compile (bench/README.md). Bodies other than a
 * string or bytes fall back to the global fetch.
 * @example new BaseAnthropic({ apiKey, fetch: nodeHttpFetch });
 */
export async function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const body = init.body;
  if (typeof input === 'object' && !(input instanceof URL)) return fetch(input, init);
  const bytes = typeof body === 'string' || body instanceof Uint8Array;
  if (body !== undefined && body !== null && !bytes) return fetch(input, init);
  const url = typeof input === 'string' ? new URL(input) : input;
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') return fetch(input, init);
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const headers = outgoingHeaders(init.headers);
  // A known length, as fetch sends: head and body go out in one write, with no chunk framing.
  if (bytes && headers['content-length'] === undefined)
    headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  return new Promise<Response>((resolve, reject) => {
    const options = { method: init.method ?? 'GET', headers, agent: secure ? agents.https : agents.http, ...(signal ? { signal } : {}) };
    const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
      // The SDK reads only what HttpResponse has (status, headers, body, text, json); typed as the Response it stands for.
      resolve(new HttpResponse(res, url.href) as unknown as Response);
    });
    // fetch rejects with a TypeError whose cause is the socket error; the SDK wraps either alike.
    req.on('error', (error) => reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error })));
    req.end(body ?? undefined);
  });
}
