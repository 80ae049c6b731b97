import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { toolResultText, truncatedToolUseIds } from '../../src/model/request.js';
import { buildRequestBody, normalizeMessages } from '../support/reference-request.js';
import { parseRetryAfterMs, retryDelayMs, DEFAULT_RETRY_TIMING } from '../../src/model/retry-policy.js';

const text = (t: string) => ({ type: 'text' as const, text: t });
const result = (id: string, content = 'ok') => ({ type: 'tool_result' as const, tool_use_id: id, content });
const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'read_file', input: {} });

describe('normalizeMessages', () => {
  it('merges a tool result message and a following user text message, tool results first', () => {
    const messages: Message[] = [
      { role: 'user', content: [text('go')] },
      { role: 'assistant', content: [use('t1'), use('t2')] },
      { role: 'user', content: [result('t1')] },
      { role: 'user', content: [text('also this'), result('t2')] },
    ];
    expect(normalizeMessages(messages)[2]).toEqual({ role: 'user', content: [result('t1'), result('t2'), text('also this')] });
    expect(normalizeMessages(messages)).toHaveLength(3);
  });

  it('merges consecutive assistant messages', () => {
    const merged = normalizeMessages([
      { role: 'user', content: [text('a')] },
      { role: 'assistant', content: [text('b')] },
      { role: 'assistant', content: [use('t1')] },
    ]);
    expect(merged[1]).toEqual({ role: 'assistant', content: [text('b'), use('t1')] });
  });

  it('drops empty text blocks and the messages they leave empty', () => {
    const merged = normalizeMessages([
      { role: 'user', content: [text('a')] },
      { role: 'assistant', content: [text('')] },
      { role: 'user', content: [text('b')] },
    ]);
    expect(merged).toEqual([{ role: 'user', content: [text('a'), text('b')] }]);
  });

  it('makes tool_result content a string and never empty', () => {
    const merged = normalizeMessages([
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'a',
            content: [
              { type: 'text', text: 'x' },
              { type: 'text', text: 'y' },
            ],
          },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', content: '', is_error: true }] },
    ]);
    expect(merged[0].content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'x\ny' },
      { type: 'tool_result', tool_use_id: 'b', content: '(no output)', is_error: true },
    ]);
  });

  it('does not change the messages it was given', () => {
    const messages: Message[] = [
      { role: 'user', content: [result('t1')] },
      { role: 'user', content: [text('x')] },
    ];
    const before = JSON.stringify(messages);
    normalizeMessages(messages);
    expect(JSON.stringify(messages)).toBe(before);
  });

  it('turns unusual tool_result content into text', () => {
    expect(toolResultText({ a: 1 })).toBe('{"a":1}');
    expect(toolResultText(undefined)).toBe('');
  });
});

describe('buildRequestBody', () => {
  it('streams, leaves out an empty system prompt and empty tools, and has no sampling parameters', () => {
    const body = buildRequestBody({
      model: 'm',
      maxTokens: 10,
      system: '  ',
      messages: [{ role: 'user', content: [text('x')] }],
      tools: [],
      cache: false,
    });
    expect(body).toEqual({ model: 'm', max_tokens: 10, stream: true, messages: [{ role: 'user', content: [text('x')] }] });
  });

  it('gives a tool schema without a type the object type the API requires', () => {
    const body = buildRequestBody({
      model: 'm',
      maxTokens: 10,
      system: 's',
      messages: [],
      tools: [{ name: 't', description: 'd', input_schema: {} }],
      cache: false,
    });
    expect(body.tools).toEqual([{ name: 't', description: 'd', input_schema: { type: 'object' } }]);
    expect(body.system).toBe('s');
  });
});

describe('truncatedToolUseIds', () => {
  it('counts a trailing tool_use as cut off when the response hit max_tokens, even if its JSON parsed', () => {
    expect(truncatedToolUseIds({ content: [text('x'), use('t1')], stopReason: 'max_tokens', unparsedIds: [] })).toEqual(['t1']);
  });

  it('trusts a complete tool_use that ended with tool_use', () => {
    expect(truncatedToolUseIds({ content: [use('t1')], stopReason: 'tool_use', unparsedIds: [] })).toEqual([]);
  });

  it('always counts a tool_use whose JSON did not parse', () => {
    expect(truncatedToolUseIds({ content: [use('t1'), text('x')], stopReason: 'end_turn', unparsedIds: ['t1'] })).toEqual(['t1']);
  });
});

describe('retry delays', () => {
  const headers = (h: Record<string, string>) => new Headers(h);

  it('reads retry-after-ms, then retry-after in seconds or as a date', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(parseRetryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfterMs(headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6_000);
    expect(parseRetryAfterMs(headers({}))).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    const timing = { ...DEFAULT_RETRY_TIMING, random: () => 0 };
    expect([1, 2, 3, 10].map((attempt) => retryDelayMs({ attempt, timing }))).toEqual([500, 1000, 2000, 8000]);
    expect(retryDelayMs({ attempt: 1, timing: { ...timing, random: () => 0.99 } })).toBeLessThan(500);
  });

  it('ignores a retry-after longer than the allowed maximum', () => {
    const timing = { ...DEFAULT_RETRY_TIMING, random: () => 0 };
    expect(retryDelayMs({ attempt: 1, headers: headers({ 'retry-after': '3600' }), timing })).toBe(500);
  });
});
