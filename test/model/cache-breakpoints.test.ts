import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { MAX_BREAKPOINTS } from '../../src/model/cache-breakpoints.js';
import { costUsd, formatUsd } from '../../src/model/cost.js';
import { modelInfo } from '../../src/model/models.js';
import { buildRequestBody } from '../support/reference-request.js';

const tools = [
  { name: 'a', description: 'A', input_schema: { type: 'object' } },
  { name: 'b', description: 'B', input_schema: { type: 'object' } },
];
const conversation: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'go' }] },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 't', signature: 's' },
      { type: 'tool_use', id: 'toolu_1', name: 'a', input: {} },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' }] },
];

function breakpoints(body: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, `${at}.${i}`);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value)) key === 'cache_control' ? found.push(at) : walk(v, `${at}.${key}`);
    }
  };
  walk(body, 'body');
  return found;
}

describe('prompt caching breakpoints', () => {
  it('marks the last tool, the system prompt and the newest message: three, within the four allowed', () => {
    const body = buildRequestBody({ model: 'm', maxTokens: 100, system: 'sys', messages: conversation, tools });
    expect(breakpoints(body)).toEqual(['body.messages.2.content.0', 'body.system.0', 'body.tools.1']);
    expect(breakpoints(body).length).toBeLessThanOrEqual(MAX_BREAKPOINTS);
  });

  it('leaves the engine messages untouched (the transcript never holds cache_control)', () => {
    const before = JSON.stringify(conversation);
    buildRequestBody({ model: 'm', maxTokens: 100, system: 'sys', messages: conversation, tools });
    expect(JSON.stringify(conversation)).toBe(before);
  });

  it('never marks a thinking block, and sends thinking blocks back as they came', () => {
    const messages = conversation.slice(0, 2);
    const body = buildRequestBody({ model: 'm', maxTokens: 100, system: '', messages, tools: [] });
    expect(body.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 't', signature: 's' });
    expect(breakpoints(body)).toEqual(['body.messages.1.content.1']);
  });

  it('asks for thinking with max_tokens above the budget', () => {
    const body = buildRequestBody({ model: 'm', maxTokens: 2000, system: '', messages: conversation, tools, thinkingBudget: 3000 });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    expect(body.max_tokens).toBeGreaterThan(3000);
    expect(buildRequestBody({ model: 'm', maxTokens: 2000, system: '', messages: conversation, tools }).thinking).toBeUndefined();
  });
});

describe('cost', () => {
  it('is usage times the list price: input, output, cache writes at 1.25x and reads at 0.1x', () => {
    const usage = { input_tokens: 1000, output_tokens: 200, cache_creation_input_tokens: 4000, cache_read_input_tokens: 10_000 };
    // claude-sonnet-4-5: $3 in, $15 out per million tokens.
    const expected = (1000 * 3 + 200 * 15 + 4000 * 3.75 + 10_000 * 0.3) / 1_000_000;
    expect(costUsd('claude-sonnet-4-5-20250929', usage)).toBeCloseTo(expected, 9);
    expect(costUsd('anthropic:claude-opus-4-1', { input_tokens: 1_000_000, output_tokens: 0 })).toBe(15);
  });

  it('is null for a model whose price is not known, never a guess', () => {
    expect(costUsd('claude-future-9', { input_tokens: 10, output_tokens: 10 })).toBeNull();
    expect(formatUsd(null)).toBe('unknown price');
    expect(modelInfo('claude-future-9').contextWindow).toBe(200_000);
  });
});
