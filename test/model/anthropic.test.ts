import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../machines/types.js';
import { createAnthropicClient, type AnthropicClientOptions } from '../../src/model/anthropic.js';
import type { ModelRequest, ToolSpec } from '../../src/model/types.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';

const TOOLS: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Read a file',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];
const HELLO: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }];
/** Tiny backoff so retry tests are fast; a test about the default delay sets its own. */
const FAST = { baseDelayMs: 1, maxDelayMs: 5 };

let fake: FakeAnthropic | undefined;

afterEach(async () => {
  const rejected = fake?.rejected ?? [];
  await fake?.close();
  fake = undefined;
  vi.unstubAllEnvs();
  // Every request the client sends must be one the real API would accept.
  expect(rejected).toEqual([]);
});

async function setup(script: FakeResponse[], options: Partial<AnthropicClientOptions> = {}, fakeKey?: string) {
  fake = await startFakeAnthropic(script, fakeKey === undefined ? {} : { apiKey: fakeKey });
  const client = createAnthropicClient({ apiKey: 'sk-test', baseURL: fake.url, model: 'claude-test', retryTiming: FAST, ...options });
  return { fake, client };
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { system: 'You are a test.', messages: HELLO, tools: TOOLS, signal: new AbortController().signal, ...overrides };
}

describe('streaming', () => {
  it('passes text deltas on in order as they arrive and returns the whole text', async () => {
    const { fake, client } = await setup([{ text: 'The quick brown fox jumps over the lazy dog.' }]);
    const deltas: string[] = [];
    const response = await client.createMessage(request({ onTextDelta: (t) => deltas.push(t) }));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('The quick brown fox jumps over the lazy dog.');
    expect(response.content).toEqual([{ type: 'text', text: 'The quick brown fox jumps over the lazy dog.' }]);
    expect(response.stopReason).toBe('end_turn');
    expect(fake.rejected).toEqual([]);
  });

  it('assembles tool_use inputs from several input_json_delta chunks', async () => {
    const input = { path: 'src/deeply/nested/file.ts', offset: 10, limit: 20 };
    const { client } = await setup([
      {
        content: [
          { type: 'text', text: 'Reading.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input },
        ],
      },
    ]);
    const response = await client.createMessage(request());
    expect(response.stopReason).toBe('tool_use');
    expect(response.content[1]).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'read_file', input });
    expect(response.truncatedToolUseIds).toBeUndefined();
  });

  it('gives a tool called with no arguments an empty object as input', async () => {
    const { client } = await setup([{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_dir', rawInputJson: '' }] }]);
    const response = await client.createMessage(request());
    expect(response.content[0]).toMatchObject({ type: 'tool_use', input: {} });
  });

  it('reports input, output, cache read and cache creation tokens', async () => {
    const usage = { input_tokens: 120, output_tokens: 34, cache_read_input_tokens: 1000, cache_creation_input_tokens: 50 };
    const { client } = await setup([{ text: 'ok', usage }]);
    const response = await client.createMessage(request());
    expect(response.usage).toEqual(usage);
  });

  it('carries thinking blocks through with their signature', async () => {
    const { client } = await setup([
      {
        content: [
          { type: 'thinking', thinking: 'let me see', signature: 'abc' },
          { type: 'text', text: 'done' },
        ],
      },
    ]);
    const response = await client.createMessage(request());
    expect(response.content[0]).toEqual({ type: 'thinking', thinking: 'let me see', signature: 'abc' });
  });
});

describe('stop reasons', () => {
  it.each(['end_turn', 'refusal', 'pause_turn', 'stop_sequence', 'max_tokens'])(
    'passes stop_reason %s on to the engine',
    async (stopReason) => {
      const { client } = await setup([{ text: 'partial', stopReason }]);
      const response = await client.createMessage(request());
      expect(response.stopReason).toBe(stopReason);
      expect(response.content).toEqual([{ type: 'text', text: 'partial' }]);
    },
  );

  it('marks a tool call cut off by max_tokens as truncated and gives it an empty input', async () => {
    const { client } = await setup([
      {
        content: [
          { type: 'text', text: 'Writing the file.' },
          { type: 'tool_use', id: 'toolu_cut', name: 'write_file', rawInputJson: '{"path": "a.txt", "content": "hal' },
        ],
        stopReason: 'max_tokens',
      },
    ]);
    const response = await client.createMessage(request());
    expect(response.stopReason).toBe('max_tokens');
    expect(response.truncatedToolUseIds).toEqual(['toolu_cut']);
    expect(response.content[1]).toEqual({ type: 'tool_use', id: 'toolu_cut', name: 'write_file', input: {} });
  });
});

describe('requests', () => {
  it('sends a Bearer key, an anthropic-version, the model, system, tools and stream, and no sampling parameters', async () => {
    const { fake, client } = await setup([{ text: 'ok' }], { maxTokens: 1234 });
    await client.createMessage(request());
    const [sent] = fake.requests;
    expect(sent.headers.authorization).toBe('Bearer [redacted]');
    expect(sent.headers['anthropic-version']).toBeTruthy();
    expect(sent.body).toMatchObject({
      model: 'claude-test',
      max_tokens: 1234,
      system: [{ type: 'text', text: 'You are a test.' }],
      stream: true,
    });
    expect((sent.body as { tools: unknown[] }).tools.map((t) => ({ ...(t as object), cache_control: undefined }))).toEqual(
      TOOLS.map((t) => ({ ...t, cache_control: undefined })),
    );
    for (const key of ['temperature', 'top_p', 'top_k']) expect(sent.body).not.toHaveProperty(key);
  });

  it('merges a tool result message and a following user message into one valid request', async () => {
    const { fake, client } = await setup([{ text: 'ok' }]);
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'read a.txt' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' }] },
      { role: 'user', content: [{ type: 'text', text: 'and now?' }] },
    ];
    await client.createMessage(request({ messages }));
    expect(fake.rejected).toEqual([]);
    expect((fake.requests[0].body as { messages: Message[] }).messages).toHaveLength(3);
  });

  it('uses ANTHROPIC_BASE_URL when no baseURL is given', async () => {
    fake = await startFakeAnthropic([{ text: 'from env' }]);
    vi.stubEnv('ANTHROPIC_BASE_URL', fake.url);
    const client = createAnthropicClient({ apiKey: 'sk-test', model: 'claude-test', retryTiming: FAST });
    const response = await client.createMessage(request());
    expect(response.content).toEqual([{ type: 'text', text: 'from env' }]);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses to be created without an API key, naming ANTHROPIC_API_KEY', () => {
    expect(() => createAnthropicClient({ apiKey: '', model: 'claude-test' })).toThrow(/ANTHROPIC_API_KEY/);
  });
});
