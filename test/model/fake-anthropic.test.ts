import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';

/** The fake is only worth something if it rejects what the real API rejects; raw fetch bypasses our client's normalising. */
let fake: FakeAnthropic | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const toolUse = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'read_file', input: { path: 'a' } }] });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'A' });

async function post(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  fake ??= await startFakeAnthropic([{ text: 'ok' }]);
  const response = await fetch(`${fake.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-secret', 'anthropic-version': '2026-10-21', ...headers },
    body: JSON.stringify({ model: 'claude-test', max_tokens: 100, ...body }),
  });
  const text = await response.text();
  return { status: response.status, text, json: (): { error: { type: string; message: string } } => JSON.parse(text) };
}

describe('fake Anthropic validation', () => {
  it('accepts a well-formed tool round trip and answers it', async () => {
    const res = await post({
      messages: [user('hi'), toolUse('toolu_1'), { role: 'user', content: [toolResult('toolu_1'), { type: 'text', text: 'go on' }] }],
    });
    expect(res.status).toBe(200);
    expect(fake?.rejected).toEqual([]);
  });

  it.each([
    [
      'a tool_use without a tool_result in the next message',
      [user('hi'), toolUse('toolu_1'), user('next')],
      /tool_use` ids were found without `tool_result`.*toolu_1/,
    ],
    ['roles that do not alternate', [user('a'), user('b')], /roles must alternate/],
    [
      'a first message from the assistant',
      [{ role: 'assistant', content: [{ type: 'text', text: 'x' }] }, user('a')],
      /first message must use the "user" role/,
    ],
    [
      'a tool_result without a matching tool_use',
      [user('hi'), { role: 'assistant', content: [{ type: 'text', text: 'x' }] }, { role: 'user', content: [toolResult('toolu_9')] }],
      /unexpected `tool_use_id`.*toolu_9/,
    ],
    [
      'text before a tool_result',
      [user('hi'), toolUse('toolu_1'), { role: 'user', content: [{ type: 'text', text: 'x' }, toolResult('toolu_1')] }],
      /tool_result blocks must come first/,
    ],
    [
      'two results for one tool_use',
      [user('hi'), toolUse('toolu_1'), { role: 'user', content: [toolResult('toolu_1'), toolResult('toolu_1')] }],
      /only one tool_result/,
    ],
    ['an empty text block', [{ role: 'user', content: [{ type: 'text', text: '' }] }], /text content blocks must be non-empty/],
    ['no messages', [], /at least one message/],
  ])('rejects %s with a 400 invalid_request_error', async (_name, messages, pattern) => {
    const res = await post({ messages });
    expect(res.status).toBe(400);
    expect(res.json().error.type).toBe('invalid_request_error');
    expect(res.json().error.message).toMatch(pattern);
    expect(fake?.rejected).toHaveLength(1);
  });

  it.each([
    ['a tool name with spaces', { tools: [{ name: 'read file', input_schema: { type: 'object' } }] }, /name: String should match pattern/],
    ['a tool without input_schema', { tools: [{ name: 'x' }] }, /input_schema: Field required/],
    [
      'a non-object input_schema',
      { tools: [{ name: 'x', input_schema: { type: 'string' } }] },
      /input_schema.type: Input should be 'object'/,
    ],
    ['temperature', { temperature: 0.2 }, /temperature: is not supported/],
    ['top_k', { top_k: 5 }, /top_k: is not supported/],
    ['an unknown field', { maxTokens: 5 }, /maxTokens: Extra inputs are not permitted/],
    ['a missing max_tokens', { max_tokens: undefined }, /max_tokens: Field required/],
  ])('rejects %s', async (_name, extra, pattern) => {
    const res = await post({ messages: [user('hi')], ...extra });
    expect(res.status).toBe(400);
    expect(res.json().error.message).toMatch(pattern);
  });

  it('answers 401 without a key and records the request with the key redacted', async () => {
    const res = await post({ messages: [user('hi')] }, { authorization: '' });
    expect(res.status).toBe(401);
    await post({ messages: [user('hi')] });
    expect(fake?.requests[1].headers.authorization).toBe('Bearer [redacted]');
    expect(JSON.stringify(fake?.requests)).not.toContain('sk-secret');
  });

  it('does not use up a scripted response on a rejected request', async () => {
    await post({ messages: [user('a'), user('b')] });
    const res = await post({ messages: [user('hi')], stream: true });
    expect(res.status).toBe(200);
    expect(res.text).toContain('"stop_reason":"end_turn"');
    expect(fake?.rejected).toHaveLength(1);
  });

  it('answers a non-streamed request with one Message object', async () => {
    fake = await startFakeAnthropic([{ content: [{ type: 'tool_use', name: 'read_file', input: { path: 'a' } }] }]);
    const res = await post({ messages: [user('hi')], stream: false });
    expect(JSON.parse(res.text)).toMatchObject({
      type: 'message',
      role: 'assistant',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 'toolu_fake_1_0', name: 'read_file', input: { path: 'a' } }],
    });
  });

  it('streams events in the real order with several deltas per block', async () => {
    fake = await startFakeAnthropic([
      {
        content: [
          { type: 'text', text: 'hello there' },
          { type: 'tool_use', name: 'read_file', input: { path: 'abc' } },
        ],
      },
    ]);
    const res = await post({ messages: [user('hi')], stream: true });
    const types = [...res.text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types.filter((t) => t === 'content_block_start')).toHaveLength(2);
    expect(res.text.match(/"input_json_delta"/g)?.length).toBeGreaterThan(2);
    expect(res.text.match(/"text_delta"/g)?.length).toBeGreaterThan(1);
  });
});
