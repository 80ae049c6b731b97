import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One text delta as the fake wrote it: its text and `performance.now()` just before the write. */
export interface WrittenDelta {
  text: string;
  at: number;
}

export interface FakeApi {
  /** For ANTHROPIC_BASE_URL. */
  url: string;
  /** `performance.now()` when each POST's headers arrived, in order. */
  requestsAt: number[];
  /** Every text delta written, over all requests, in order. */
  written: WrittenDelta[];
  close(): Promise<void>;
}

export interface FakeApiOptions {
  /** The answer's text, one SSE delta per element. */
  deltas: (request: number) => string[];
  /**
   * A tool session: a prompt "rounds N" gets N answers calling this tool before the text answer
   * (counted from the assistant turns in the request, so concurrent sessions do not mix).
   */
  toolCall?: { name: string; input: Record<string, unknown> };
  /** Wait between deltas; 0 writes them back to back. */
  spacingMs?: number;
  /** Wait before each answer (a model that takes its time): many tasks are then in flight at once. */
  latencyMs?: number;
}

const sse = (res: ServerResponse, event: Record<string, unknown> & { type: string }) =>
  res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);

/** The response head and `message_start` every answer begins with. */
function startMessage(res: ServerResponse, n: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_bench_${n}` });
  sse(res, {
    type: 'message_start',
    message: {
      id: `msg_bench_${n}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-bench',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A purpose-built Anthropic Messages API for the benchmarks: answers every POST with a streamed
 * text message, timestamping each request's arrival and each delta as it is written. (The test
 * suite's fake validates requests and scripts failures; here only timing matters.)
 * @example const api = await startFakeApi({ deltas: () => ['hello'] }); ... api.requestsAt[0]
 */
export async function startFakeApi(options: FakeApiOptions): Promise<FakeApi> {
  const requestsAt: number[] = [];
  const written: WrittenDelta[] = [];
  const server = createServer((req, res) => {
    const n = requestsAt.push(performance.now());
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => options.toolCall && body.push(chunk));
    req.on('end', () => {
      const reply = () => {
        if (options.toolCall && wantsTool(Buffer.concat(body).toString('utf8'))) answerTool(res, n, options.toolCall);
        else void answer(res, n);
      };
      if (options.latencyMs) setTimeout(reply, options.latencyMs);
      else reply();
    });
  });

  async function answer(res: ServerResponse, n: number): Promise<void> {
    startMessage(res, n);
    sse(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    for (const text of options.deltas(n)) {
      if (options.spacingMs) await sleep(options.spacingMs);
      if (res.destroyed) return;
      written.push({ text, at: performance.now() });
      sse(res, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
    }
    sse(res, { type: 'content_block_stop', index: 0 });
    sse(res, { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } });
    sse(res, { type: 'message_stop' });
    res.end();
  }

  function answerTool(res: ServerResponse, n: number, call: NonNullable<FakeApiOptions['toolCall']>): void {
    startMessage(res, n);
    sse(res, {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: `toolu_bench_${n}`, name: call.name, input: {} },
    });
    sse(res, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) } });
    sse(res, { type: 'content_block_stop', index: 0 });
    sse(res, { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 1 } });
    sse(res, { type: 'message_stop' });
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requestsAt,
    written,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Whether a request of a "rounds N" session has had fewer than N tool rounds so far. */
function wantsTool(body: string): boolean {
  const { messages } = JSON.parse(body) as { messages: Array<{ role: string; content: unknown }> };
  const first = messages[0]?.content;
  const prompt = typeof first === 'string' ? first : JSON.stringify(first);
  const rounds = Number(/rounds (\d+)/.exec(prompt)?.[1] ?? 0);
  return messages.filter((m) => m.role === 'assistant').length < rounds;
}
