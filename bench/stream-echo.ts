/**
 * The streaming baseline's child process: the least a Node program can do to pass text deltas
 * from the API to stdout. It POSTs to $BENCH_API_URL/v1/messages with node:http, reads the SSE
 * lines and writes each text delta to stdout as it comes.
 */
import { request } from 'node:http';
import { onSseEvents } from './sse-lines.js';

const url = new URL('/v1/messages', process.env.BENCH_API_URL);
const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
  onSseEvents<{ type: string; delta?: { type: string; text?: string } }>(res, (event) => {
    if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta') process.stdout.write(event.delta.text ?? '');
  });
});
req.end(JSON.stringify({ model: 'claude-bench', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'go' }] }));
