import { describe, expect, it } from 'vitest';
import { estimateMessages } from '../../machines/context-budget.js';
import type { Message } from '../../machines/types.js';
import { chooseCut, compactMessages, SUMMARY_PREFIX, summarySource } from '../../src/context/compaction.js';
import { normalizeMessages } from '../support/reference-request.js';
import { validateMessagesRequest } from '../support/fake-anthropic-validate.js';

/** A conversation of `rounds` tool rounds, each result `size` characters. */
function conversation(rounds: number, size = 400): Message[] {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'the task' }] }];
  for (let i = 0; i < rounds; i++) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `round ${i}` },
        { type: 'tool_use', id: `toolu_${i}`, name: 'read_file', input: { path: `f${i}` } },
      ],
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: 'x'.repeat(size) }] });
  }
  return messages;
}

const valid = (messages: Message[]) =>
  validateMessagesRequest({
    model: 'm',
    max_tokens: 10,
    messages: normalizeMessages(messages),
    tools: [{ name: 'read_file', input_schema: { type: 'object' } }],
  });

describe('choosing the cut', () => {
  it('cuts just before an assistant message, keeping what fits, so no tool_use loses its tool_result', () => {
    const messages = conversation(20);
    const cut = chooseCut(messages, 1000)!;
    expect(messages[cut]!.role).toBe('assistant');
    expect(estimateMessages(messages.slice(cut))).toBeLessThanOrEqual(1000);
    expect(estimateMessages(messages.slice(cut - 2))).toBeGreaterThan(1000);
    expect(valid([{ role: 'user', content: [{ type: 'text', text: 'summary' }] }, ...messages.slice(cut)])).toEqual([]);
  });

  it('keeps at least the last assistant message, and has no cut when there is nothing before it', () => {
    const messages = conversation(3, 50_000);
    expect(chooseCut(messages, 10)).toBe(5);
    expect(chooseCut([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], 10)).toBeNull();
  });

  it('writes the summary from everything when it fits, else from the first message and the latest turns before the cut', () => {
    const messages = conversation(20);
    expect(summarySource(messages, 31, 1_000_000)).toEqual(messages);
    const trimmed = summarySource(messages, 31, 1000);
    expect(trimmed[0]).toBe(messages[0]);
    expect(estimateMessages(trimmed)).toBeLessThanOrEqual(1000);
    expect(valid(trimmed), JSON.stringify(trimmed.map((m) => m.role))).toEqual([]);
  });
});

describe('compactMessages', () => {
  it('asks for a summary in a final user message, and replaces what it covers with the summary', async () => {
    const messages = conversation(30);
    let asked: Message[] = [];
    const result = await compactMessages({
      messages,
      window: 8000,
      overheadTokens: 500,
      summarise: async (request) => {
        asked = request;
        return { content: [{ type: 'text', text: 'The task; read f0..f29.' }], usage: { input_tokens: 10, output_tokens: 5 } };
      },
    });
    expect(asked.at(-1)!.role).toBe('user');
    expect(JSON.stringify(asked.at(-1))).toMatch(/summary/);
    expect(valid(asked)).toEqual([]);
    expect(result!.summary.content[0]).toEqual({ type: 'text', text: `${SUMMARY_PREFIX}\n\nThe task; read f0..f29.` });
    expect(messages[result!.removed]!.role).toBe('assistant');
    expect(result!.tokensAfter).toBeLessThan(result!.tokensBefore);
  });

  it('fails when the summary comes back without text', async () => {
    const summarise = async () => ({ content: [{ type: 'tool_use' }], usage: { input_tokens: 1, output_tokens: 1 } });
    await expect(compactMessages({ messages: conversation(5), window: 1000, overheadTokens: 0, summarise })).rejects.toThrow(
      /without text/,
    );
  });
});
