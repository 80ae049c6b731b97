import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { INTERRUPTED_TEXT, pairingProblems, repairPairing } from '../../src/sessions/repair.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const uses = (...ids: string[]): Message => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'tool_use', id, name: 'bash', input: { command: 'true' } })),
});
const results = (...ids: string[]): Message => ({
  role: 'user',
  content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' })),
});
const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('repairPairing', () => {
  it('leaves a valid conversation untouched', () => {
    const messages = [user('a'), uses('t1', 't2'), results('t1', 't2'), answer('done')];
    const repair = repairPairing(messages);
    expect(repair).toMatchObject({ tail: null, rewritten: false, notes: [] });
    expect(repair.messages).toEqual(messages);
  });

  it("closes the last response's unanswered tool calls with interrupted is_error results, appended as a tail", () => {
    const repair = repairPairing([user('a'), uses('t1', 't2')]);
    expect(repair.rewritten).toBe(false);
    expect(repair.tail).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: INTERRUPTED_TEXT, is_error: true },
        { type: 'tool_result', tool_use_id: 't2', content: INTERRUPTED_TEXT, is_error: true },
      ],
    });
    expect(repair.messages.at(-1)).toBe(repair.tail);
    expect(pairingProblems(repair.messages)).toEqual([]);
  });

  it('gives a call that finished before the crash its output from the audit log instead of "interrupted"', () => {
    const repair = repairPairing([user('a'), uses('t1', 't2')], new Map([['t1', { content: 'file list', isError: false }]]));
    const [first, second] = repair.tail!.content as Array<{ content: string; is_error: boolean }>;
    expect(first!.content).toMatch(/^file list\n\[the process stopped after this tool finished/);
    expect(first!.is_error).toBe(false);
    expect(second).toMatchObject({ content: INTERRUPTED_TEXT, is_error: true });
  });

  it('answers only the missing ids when some results were recorded', () => {
    const repair = repairPairing([user('a'), uses('t1', 't2'), results('t1')]);
    expect(repair.tail?.content).toEqual([{ type: 'tool_result', tool_use_id: 't2', content: INTERRUPTED_TEXT, is_error: true }]);
    expect(pairingProblems(repair.messages)).toEqual([]);
  });

  it('inserts missing results before the next assistant message and asks for a rewrite when the gap is mid-file', () => {
    const repair = repairPairing([user('a'), uses('t1'), user('b'), answer('c')]);
    expect(repair.rewritten).toBe(true);
    expect(repair.tail).toBeNull();
    expect(repair.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'user', 'assistant']);
    expect(pairingProblems(repair.messages)).toEqual([]);
  });

  it('drops orphaned and duplicated results, and a user message left empty by that', () => {
    const repair = repairPairing([user('a'), uses('t1'), results('t1'), results('t1', 'ghost'), answer('c'), results('late')]);
    expect(repair.rewritten).toBe(true);
    expect(repair.notes).toHaveLength(3);
    expect(repair.messages).toEqual([user('a'), uses('t1'), results('t1'), answer('c')]);
    expect(pairingProblems(repair.messages)).toEqual([]);
  });
});

describe('pairingProblems', () => {
  it('accepts results split over adjacent user messages (they are merged when sent)', () => {
    expect(pairingProblems([user('a'), uses('t1', 't2'), results('t1'), results('t2'), user('next')])).toEqual([]);
  });

  it('names a tool_use without a result, a result without a tool_use, a double result and a reused id', () => {
    const problems = pairingProblems([user('a'), uses('t1', 't2'), results('t1', 't1'), answer('x'), results('t9'), uses('t1')]);
    expect(problems).toEqual([
      't1 (message 2) has 2 tool_results',
      't2 (message 2) has no tool_result',
      'message 5: tool_result for t9 has no tool_use just before it',
      'tool_use id t1 is used twice (message 6)',
      't1 (message 6) has no tool_result',
    ]);
  });
});
