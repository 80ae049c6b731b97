import { Agent as HttpAgent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HttpResponse } from './http-response.js';
import { LiteHeaders } from './lite-headers.js';
import { descriptorLimit } from '../system/descriptors.js';

// Kept-alive connections, as fetch keeps them: every round of a session reuses one socket. At
// most half the process's descriptors are sockets to one host: a thousand tasks at once queue for
// a socket instead of failing with EMFILE, and the files they write still find descriptors. As many
// may wait idle between rounds: at node's default of 256 idle sockets, a thousand tasks whose answers
// come back together closed and reconnected ~750 sockets every round.
const limit = descriptorLimit();
const maxSockets = limit === null ? Number.POSITIVE_INFINITY : Math.max(8, Math.floor(limit / 2));
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets }),
  https: new HttpsAgent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets }),
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
  const options = { method: init.method ?? 'GET', headers, agent: secure ? agents.https : agents.http, ...(signal ? { signal } : {}) };
  const send = () =>
    new Promise<Response>((resolve, reject) => {
      let answered = false;
      const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
        answered = true;
        // The SDK reads only what HttpResponse has (status, headers, body, text, json); typed as the Response it stands for.
        resolve(new HttpResponse(res, url.href) as unknown as Response);
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed while it sat idle (its keep-alive timeout ran out while
        // this process was busy, so the close was not read yet): the request never reached the server.
        // Sent again on another socket, as Node's documentation advises; the broken one is gone, so this ends.
        if (req.reusedSocket && !answered && !signal?.aborted && STALE_SOCKET_CODES.has(error.code ?? '')) {
          send().then(resolve, reject);
          return;
        }
        // fetch rejects with a TypeError whose cause is the socket error; the SDK wraps either alike.
        reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
      });
      req.end(body ?? undefined);
    });
  return send();
}

/** How a write to a kept-alive socket the server already closed fails. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);
