/**
 * The least a Node program can do for one tool session: POST the growing conversation to
 * `${apiUrl}/v1/messages` with node:http, read the SSE lines, answer each tool_use by reading the
 * file it names in `workspace`, append every message as a JSON line to `transcript`. Returns the
 * final text. The baseline of rows 8 and 13 (many at once in one process).
 * @example await plainSession({ apiUrl, workspace, transcript, prompt: 'rounds 4' })
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { onSseEvents } from './sse-lines.js';

interface Block {
  type: string;
  id?: string;
  text?: string;
  input?: { path?: string };
}

interface StreamEvent {
  type: string;
  content_block?: Block;
  delta?: { type: string; text?: string; partial_json?: string };
}

const agent = new Agent({ keepAlive: true });

function post(url: URL, messages: Array<{ role: string; content: unknown }>): Promise<Block[]> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ model: 'claude-bench', max_tokens: 1024, stream: true, messages });
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const blocks: Block[] = [];
      let json = '';
      onSseEvents<StreamEvent>(res, (event) => {
        if (event.type === 'content_block_start') blocks.push({ ...event.content_block! });
        else if (event.delta?.type === 'text_delta') blocks.at(-1)!.text = (blocks.at(-1)!.text ?? '') + event.delta.text;
        else if (event.delta?.type === 'input_json_delta') json += event.delta.partial_json;
        else if (event.type === 'content_block_stop' && blocks.at(-1)?.type === 'tool_use') blocks.at(-1)!.input = JSON.parse(json || '{}');
      });
      res.on('end', () => resolve(blocks));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * post(), again when a kept-alive socket was closed under it (the server's keep-alive timeout ran out
 * while this process was busy), as xagent's transport does: at 10,000 tasks at once several idle
 * sockets in a row can be stale.
 */
async function postAgain(url: URL, messages: Array<{ role: string; content: unknown }>): Promise<Block[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await post(url, messages);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET' || attempt >= 10) throw error;
    }
  }
}

export async function plainSession(options: { apiUrl: string; workspace: string; transcript: string; prompt: string }): Promise<string> {
  const url = new URL('/v1/messages', options.apiUrl);
  const messages: Array<{ role: string; content: unknown }> = [];
  const push = (message: { role: string; content: unknown }) => {
    messages.push(message);
    appendFileSync(options.transcript, `${JSON.stringify(message)}\n`);
  };
  push({ role: 'user', content: options.prompt });
  for (;;) {
    const blocks = await postAgain(url, messages);
    push({ role: 'assistant', content: blocks });
    const calls = blocks.filter((b) => b.type === 'tool_use');
    if (calls.length === 0) return blocks.map((b) => b.text ?? '').join('');
    push({
      role: 'user',
      content: calls.map((c) => ({
        type: 'tool_result',
        tool_use_id: c.id,
        content: readFileSync(path.join(options.workspace, c.input?.path ?? ''), 'utf8'),
      })),
    });
  }
}
