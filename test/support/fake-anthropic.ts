/**
 * A fake Anthropic Messages API for tests: node:http on 127.0.0.1, a random port, answering
 * POST /v1/messages from a script, streamed as real SSE events (or as one JSON body when the
 * request is not streamed). Every request is validated as the real API would, recorded (key
 * redacted), and every rule it broke is kept in `rejected`, so a test can assert it is empty.
 *
 * Point the real client (or the built CLI, through ANTHROPIC_BASE_URL) at `url`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateMessagesRequest } from './fake-anthropic-validate.js';
import { streamEvents, toMessage, type FakeBlock, type FakeUsage } from './fake-anthropic-events.js';
import { DEFAULT_CACHE_RULES, PromptCache, validateCacheControl, type PromptAccounting } from './fake-anthropic-cache.js';
import { redactedData, signThinking, thinkingEnabled, validateThinking } from './fake-anthropic-thinking.js';

/** One scripted answer; the --model-script format plus options for failure modes. */
export interface FakeResponse {
  content?: FakeBlock[];
  /** Shorthand for `content: [{ type: 'text', text }]`. */
  text?: string;
  /** An error response in the real shape; its HTTP status follows the type unless `status` says otherwise. */
  error?: { type: string; message?: string };
  status?: number;
  /** Seconds, sent as `retry-after`. */
  retryAfter?: number;
  /** Sent as `retry-after-ms`. */
  retryAfterMs?: number;
  /** Wait before the response headers. */
  delay_ms?: number;
  /** Wait between stream events (a slow stream). */
  eventDelayMs?: number;
  /** Close the socket after this many bytes of the stream's body: a dropped connection. */
  dropAfterBytes?: number;
  /** Send an `error` event of this type after the content blocks, instead of message_delta/stop. */
  streamError?: { type: string; message?: string };
  /** Default: tool_use if the content has a tool_use block, else end_turn. */
  stopReason?: string;
  usage?: FakeUsage;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface Rejection {
  /** Index into `requests`. */
  request: number;
  errors: string[];
}

export interface FakeAnthropic {
  /** Base URL, e.g. http://127.0.0.1:54321 (what ANTHROPIC_BASE_URL takes). */
  url: string;
  requests: RecordedRequest[];
  /** Requests that broke an API rule, or arrived when the script was used up. */
  rejected: Rejection[];
  /** Indices into `requests` whose connection closed before the response was complete (client abort, dropAfterBytes). */
  disconnected: number[];
  /** Indices into `requests` answered 400 "prompt is too long" (a scenario, not a broken rule). */
  tooLong: number[];
  /** The usage the fake reported for each answered request, in order. */
  usages: Array<PromptAccounting & { request: number }>;
  /** Adds responses to the end of the script. */
  push(...responses: FakeResponse[]): void;
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  /** When set, any other key gets a 401 authentication_error, like the real API. */
  apiKey?: string;
  /** Prompt tokens a request may have before the 400 "prompt is too long"; default 200,000. */
  contextWindow?: number;
  /** Shortest cacheable prefix for a model; default 1,024 (2,048 for haiku). */
  minCacheTokens?: (model: string) => number;
  /** Answers a valid request itself when it returns a response (a model that reads the request); otherwise the script answers. */
  respond?: (body: Record<string, unknown>) => FakeResponse | null;
}

const STATUS_BY_ERROR_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/**
 * Starts the fake on a random loopback port.
 * @example
 * const fake = await startFakeAnthropic([{ text: 'hello' }]);
 * const client = createAnthropicClient({ apiKey: 'test', baseURL: fake.url, model: 'claude-test' });
 * ...
 * expect(fake.rejected).toEqual([]);
 * await fake.close();
 */
export async function startFakeAnthropic(
  script: FakeResponse[] | { responses: FakeResponse[] } = [],
  options: FakeAnthropicOptions = {},
): Promise<FakeAnthropic> {
  const queue: FakeResponse[] = [...(Array.isArray(script) ? script : script.responses)];
  const requests: RecordedRequest[] = [];
  const rejected: Rejection[] = [];
  const disconnected: number[] = [];
  const tooLong: number[] = [];
  const usages: FakeAnthropic['usages'] = [];
  const cache = new PromptCache({
    contextWindow: options.contextWindow ?? DEFAULT_CACHE_RULES.contextWindow,
    minCacheTokens: options.minCacheTokens ?? DEFAULT_CACHE_RULES.minCacheTokens,
  });
  let served = 0;

  const server = createServer((req, res) => {
    void readBody(req).then((raw) => handle(req, res, raw));
  });

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    let body: unknown = raw;
    try {
      body = JSON.parse(raw) as unknown;
    } catch {
      // kept raw; rejected below
    }
    const index = requests.push({ method: req.method ?? '', path: req.url ?? '', headers: redactedHeaders(req), body }) - 1;
    res.on('close', () => {
      if (!res.writableFinished) disconnected.push(index);
    });
    const reject = (status: number, type: string, errors: string[]): void => {
      rejected.push({ request: index, errors });
      sendError(res, status, { type, message: errors.join('; ') });
    };

    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') {
      return reject(404, 'not_found_error', [`Not found: ${req.method} ${req.url}`]);
    }
    const key = bearerOrApiKey(req);
    if (!key) return reject(401, 'authentication_error', ['x-api-key or Authorization header is required']);
    if (options.apiKey !== undefined && key !== options.apiKey) {
      // A wrong key is the test's scenario, not a malformed request: not recorded as rejected.
      return sendError(res, 401, { type: 'authentication_error', message: 'invalid x-api-key' });
    }
    if (!req.headers['anthropic-version']) return reject(400, 'invalid_request_error', ['anthropic-version: header is required']);
    if (typeof body !== 'object' || body === null)
      return reject(400, 'invalid_request_error', ['There was an error parsing the body as JSON']);
    const request = body as Record<string, unknown>;
    const errors = [...validateMessagesRequest(body), ...validateCacheControl(request), ...validateThinking(request)];
    if (errors.length > 0) return reject(400, 'invalid_request_error', errors);
    const tooLongMessage = cache.tooLong(request);
    if (tooLongMessage) {
      tooLong.push(index);
      return sendError(res, 400, { type: 'invalid_request_error', message: tooLongMessage });
    }

    const response = options.respond?.(request) ?? queue.shift();
    served++;
    if (!response) {
      rejected.push({ request: index, errors: [`fake-anthropic: no scripted response left for request #${served}`] });
      // x-should-retry: false so a client does not retry its way through the missing script.
      return sendError(
        res,
        500,
        { type: 'api_error', message: `fake-anthropic: script exhausted at request #${served}` },
        {
          'x-should-retry': 'false',
        },
      );
    }
    const accounting = cache.account(request);
    usages.push({ request: index, ...accounting });
    const answer = withThinking(response, request, served);
    await respond(res, { ...answer, usage: { ...accounting, ...answer.usage } }, request, served);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    rejected,
    disconnected,
    tooLong,
    usages,
    push: (...responses) => {
      queue.push(...responses);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** With thinking on, every answer starts with a signed thinking block (scripted or made up); blocks get their signatures. */
function withThinking(response: FakeResponse, body: Record<string, unknown>, n: number): FakeResponse {
  const blocks = response.content ?? (response.text !== undefined ? [{ type: 'text', text: response.text }] : undefined);
  if (!blocks) return response;
  const signed = blocks.map((block): FakeBlock => {
    if (block.type === 'thinking' && block.signature === undefined) return { ...block, signature: signThinking(block.thinking ?? '') };
    if (block.type === 'redacted_thinking' && block.data === undefined) return { ...block, data: redactedData(`${n}`) };
    return block;
  });
  const hasThinking = signed.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking');
  if (thinkingEnabled(body) && !hasThinking) {
    const thinking = `Let me think about request ${n}.`;
    signed.unshift({ type: 'thinking', thinking, signature: signThinking(thinking) });
  }
  const { text, ...rest } = response;
  void text;
  return { ...rest, content: signed };
}

async function respond(res: ServerResponse, response: FakeResponse, body: Record<string, unknown>, n: number): Promise<void> {
  if (response.delay_ms) await waitOrClosed(res, response.delay_ms);
  if (res.destroyed) return;
  const headers: Record<string, string> = { 'request-id': `req_fake_${n}` };
  if (response.retryAfter !== undefined) headers['retry-after'] = String(response.retryAfter);
  if (response.retryAfterMs !== undefined) headers['retry-after-ms'] = String(response.retryAfterMs);
  if (response.error) {
    const status = response.status ?? STATUS_BY_ERROR_TYPE[response.error.type] ?? 500;
    return sendError(res, status, response.error, headers);
  }
  const model = String(body.model);
  if (body.stream !== true) {
    res.writeHead(response.status ?? 200, { ...headers, 'content-type': 'application/json' });
    res.end(JSON.stringify(toMessage(response, model, n, body)));
    return;
  }
  res.writeHead(response.status ?? 200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let written = 0;
  for (const event of streamEvents(response, model, n, body)) {
    if (res.destroyed) return;
    const chunk = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    const limit = response.dropAfterBytes;
    if (limit !== undefined && written + chunk.length >= limit) {
      // Write what fits, then cut the connection without ending the chunked body.
      res.write(chunk.slice(0, Math.max(0, limit - written)), () => res.socket?.destroy());
      return;
    }
    res.write(chunk);
    written += chunk.length;
    if (response.eventDelayMs) await waitOrClosed(res, response.eventDelayMs);
  }
  res.end();
}

function sendError(
  res: ServerResponse,
  status: number,
  error: { type: string; message?: string },
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type: error.type, message: error.message ?? defaultMessage(error.type) } }));
}

function defaultMessage(type: string): string {
  return type === 'overloaded_error' ? 'Overloaded' : type.replace(/_/g, ' ');
}

function bearerOrApiKey(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  const key = req.headers['x-api-key'];
  return typeof key === 'string' ? key : undefined;
}

function redactedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] = name === 'authorization' ? text.replace(/^(Bearer ).*/, '$1[redacted]') : name === 'x-api-key' ? '[redacted]' : text;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

/** Resolves after ms, or early when the client has gone away (an aborted request). */
function waitOrClosed(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on('close', done);
  });
}
