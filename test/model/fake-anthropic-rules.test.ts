import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions, type FakeResponse } from '../support/fake-anthropic.js';
import { signThinking } from '../support/fake-anthropic-thinking.js';

/** The fake's caching, window and thinking rules, driven with raw fetch so nothing of ours normalises the requests. */
let fake: FakeAnthropic | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const EPHEMERAL = { type: 'ephemeral' };
const big = (n: number) => 'x'.repeat(n);
const user = (text: string, cached = false) => ({
  role: 'user',
  content: [{ type: 'text', text, ...(cached ? { cache_control: EPHEMERAL } : {}) }],
});
const assistant = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });

async function start(script: FakeResponse[], options: FakeAnthropicOptions = {}) {
  fake = await startFakeAnthropic(script, options);
  return fake;
}

async function post(body: Record<string, unknown>) {
  const response = await fetch(`${fake!.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2026-10-21' },
    body: JSON.stringify({ model: 'claude-test', max_tokens: 2000, ...body }),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever shape the API's error body has
  return { status: response.status, json: JSON.parse(text) as Record<string, any> };
}

describe('fake prompt cache', () => {
  it('writes the prefix at a breakpoint, then reads it back on the next request', async () => {
    await start([{ text: 'a' }, { text: 'b' }]);
    const system = [{ type: 'text', text: big(8000), cache_control: EPHEMERAL }];
    const first = await post({ system, messages: [user('hi')] });
    expect(first.json.usage).toMatchObject({ cache_read_input_tokens: 0 });
    expect(first.json.usage.cache_creation_input_tokens).toBeGreaterThan(2000);
    const second = await post({ system, messages: [user('hi again')] });
    expect(second.json.usage.cache_read_input_tokens).toBe(first.json.usage.cache_creation_input_tokens);
    expect(second.json.usage.cache_creation_input_tokens).toBe(0);
  });

  it('never caches a prefix under the model minimum', async () => {
    await start([{ text: 'a' }, { text: 'b' }]);
    const system = [{ type: 'text', text: 'short', cache_control: EPHEMERAL }];
    await post({ system, messages: [user('hi')] });
    const second = await post({ system, messages: [user('hi')] });
    expect(second.json.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  });

  it('finds a written prefix up to 20 blocks before a breakpoint, not further', async () => {
    await start(Array.from({ length: 3 }, () => ({ text: 'ok' })));
    const turns = (n: number) => Array.from({ length: n }, (_, i) => [user(`q${i} ${big(400)}`), assistant(`a${i}`)]).flat();
    const base = [user(big(6000), true)];
    await post({ messages: base });
    // 18 blocks later: still found.
    const near = await post({ messages: [user(big(6000)), assistant('ok'), ...turns(8), user('last', true)] });
    expect(near.json.usage.cache_read_input_tokens).toBeGreaterThan(1000);
    // 24 blocks later, and nothing of this prefix written in between: a miss.
    const far = await post({ messages: [user(big(6000)), assistant('ok'), ...turns(11), user('far', true)] });
    expect(far.json.usage.cache_read_input_tokens).toBe(0);
  });

  it('rejects more than four cache_control blocks', async () => {
    await start([{ text: 'a' }]);
    const messages = [user('a', true), assistant('b'), user('c', true), assistant('d'), user('e', true)];
    const res = await post({
      system: [
        { type: 'text', text: 's', cache_control: EPHEMERAL },
        { type: 'text', text: 't', cache_control: EPHEMERAL },
      ],
      messages,
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/A maximum of 4 blocks with cache_control may be provided. Found 5/);
  });
});

describe('fake context window', () => {
  it('answers 400 "prompt is too long" past the window, without using up a scripted answer', async () => {
    await start([{ text: 'fits' }], { contextWindow: 1000 });
    const res = await post({ messages: [user(big(8000))] });
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({
      type: 'invalid_request_error',
      message: expect.stringMatching(/^prompt is too long: \d+ tokens > 1000 maximum$/),
    });
    expect(fake!.tooLong).toEqual([0]);
    expect(fake!.rejected).toEqual([]);
    expect((await post({ messages: [user('short')] })).status).toBe(200);
  });
});

describe('fake extended thinking', () => {
  const thinking = (budget: number) => ({ type: 'enabled', budget_tokens: budget });
  const toolTurn = (first: Record<string, unknown>[]) => [
    user('go'),
    { role: 'assistant', content: [...first, { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' }] },
  ];
  const tools = [{ name: 'read_file', input_schema: { type: 'object' } }];

  it.each([
    [1000, 2000, /greater than or equal to 1024/],
    [2000, 2000, /`max_tokens` must be greater than `thinking.budget_tokens`/],
  ])('rejects budget_tokens %i with max_tokens %i', async (budget, max, pattern) => {
    await start([{ text: 'a' }]);
    const res = await post({ max_tokens: max, thinking: thinking(budget), messages: [user('hi')] });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(pattern);
  });

  it('answers with a signed thinking block first when thinking is on', async () => {
    await start([{ text: 'a' }]);
    const res = await post({ max_tokens: 4000, thinking: thinking(1024), messages: [user('hi')] });
    const [first] = res.json.content as Array<{ type: string; thinking: string; signature: string }>;
    expect(first!.type).toBe('thinking');
    expect(first!.signature).toBe(signThinking(first!.thinking));
  });

  it('accepts a thinking block sent back exactly, and rejects a changed text or signature', async () => {
    await start([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const block = { type: 'thinking', thinking: 'I will read it.', signature: signThinking('I will read it.') };
    const ok = await post({ max_tokens: 4000, thinking: thinking(1024), tools, messages: toolTurn([block]) });
    expect(ok.status).toBe(200);
    const changedText = await post({
      max_tokens: 4000,
      thinking: thinking(1024),
      tools,
      messages: toolTurn([{ ...block, thinking: 'I will read it!' }]),
    });
    expect(changedText.json.error.message).toMatch(/Invalid `signature` in `thinking` block/);
    const changedSignature = await post({
      max_tokens: 4000,
      thinking: thinking(1024),
      tools,
      messages: toolTurn([{ ...block, signature: 'forged' }]),
    });
    expect(changedSignature.json.error.message).toMatch(/Invalid `signature`/);
  });

  it('rejects a tool-use turn whose assistant message lost its thinking block', async () => {
    await start([{ text: 'a' }]);
    const res = await post({ max_tokens: 4000, thinking: thinking(1024), tools, messages: toolTurn([]) });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/Expected `thinking` or `redacted_thinking`, but found `tool_use`/);
  });
});
