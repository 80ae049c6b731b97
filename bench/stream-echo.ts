/**
 * The streaming baseline's child process: the least a Node program can do to pass text deltas
 * from the API to stdout. It POSTs to $BENCH_API_URL/v1/messages with node:http, reads the SSE
 * lines and writes each text delta to stdout as it comes.
 */
import { request } from 'node:http';

const url = new URL('/v1/messages', process.env.BENCH_API_URL);
const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
  res.setEncoding('utf8');
  let pending = '';
  res.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data: ')) continue;
      const event = JSON.parse(line.slice(6)) as { type: string; delta?: { type: string; text?: string } };
      if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta') process.stdout.write(event.delta.text ?? '');
    }
  });
});
req.end(JSON.stringify({ model: 'claude-bench', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'go' }] }));
