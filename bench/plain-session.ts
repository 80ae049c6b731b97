/**
 * The tool-session baseline's child process: the least a Node program can do for the same
 * session. It POSTs the growing conversation to $BENCH_API_URL/v1/messages with node:http, reads
 * the SSE lines, answers each tool_use by reading the file it names from $BENCH_WORKSPACE,
 * appends every message as a JSON line to a transcript, and prints the final text.
 */
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';

interface Block {
  type: string;
  id?: string;
  text?: string;
  input?: { path?: string };
}

const url = new URL('/v1/messages', process.env.BENCH_API_URL);
const workspace = process.env.BENCH_WORKSPACE ?? process.cwd();
const transcript = path.join(mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-plain-')), 'transcript.jsonl');
const messages: Array<{ role: string; content: unknown }> = [];

function post(): Promise<Block[]> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ model: 'claude-bench', max_tokens: 1024, stream: true, messages });
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.setEncoding('utf8');
      const blocks: Block[] = [];
      let json = '';
      let pending = '';
      res.on('data', (chunk: string) => {
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.startsWith('data: ')) continue;
          const event = JSON.parse(line.slice(6)) as {
            type: string;
            content_block?: Block;
            delta?: { type: string; text?: string; partial_json?: string };
          };
          if (event.type === 'content_block_start') blocks.push({ ...event.content_block! });
          else if (event.delta?.type === 'text_delta') blocks.at(-1)!.text = (blocks.at(-1)!.text ?? '') + event.delta.text;
          else if (event.delta?.type === 'input_json_delta') json += event.delta.partial_json;
          else if (event.type === 'content_block_stop' && blocks.at(-1)?.type === 'tool_use')
            blocks.at(-1)!.input = JSON.parse(json || '{}');
        }
      });
      res.on('end', () => resolve(blocks));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const push = (message: { role: string; content: unknown }) => {
  messages.push(message);
  appendFileSync(transcript, `${JSON.stringify(message)}\n`);
};

push({ role: 'user', content: process.argv.slice(2).join(' ') });
for (;;) {
  const blocks = await post();
  push({ role: 'assistant', content: blocks });
  const calls = blocks.filter((b) => b.type === 'tool_use');
  if (calls.length === 0) {
    process.stdout.write(`${blocks.map((b) => b.text ?? '').join('')}\n`);
    break;
  }
  push({
    role: 'user',
    content: calls.map((c) => ({
      type: 'tool_result',
      tool_use_id: c.id,
      content: readFileSync(path.join(workspace, c.input?.path ?? ''), 'utf8'),
    })),
  });
}
