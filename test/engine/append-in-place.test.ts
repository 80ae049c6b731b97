import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { deepFreeze, runTask } from '../support/engine-harness.js';

describe('the conversation lives outside the chart', () => {
  it("keeps no message in the chart's context: the engine appends each one the chart emits to the caller's array, in place", async () => {
    const messages: Message[] = [];
    const contexts: object[] = [];
    const rounds = 30;
    const script = [
      ...Array.from({ length: rounds }, (_, i) => ({
        content: [{ type: 'tool_use', id: `t${i}`, name: 'echo', input: { text: `${i}` } }],
      })),
      { text: 'done' },
    ];
    const run = await runTask(script, {
      messages,
      maxTurns: rounds + 1,
      maxToolCalls: rounds,
      onMicrostep: (microstep) => contexts.push(microstep.context),
    });
    expect(run.result.reason).toBe('final_answer');
    expect(messages).toHaveLength(1 + rounds * 2 + 1);
    expect(run.transcript).toEqual(messages);
    // No snapshot carries the history, so none grows with it (a copy per step would cost O(history)).
    for (const context of contexts) expect(JSON.stringify(context)).not.toContain('"role"');
  });

  it("runs with every step's context deep-frozen, as XState v6 does in development: nothing changes a snapshot in place", async () => {
    const seen: boolean[] = [];
    const run = await runTask([{ content: [{ type: 'tool_use', id: 't1', name: 'echo', input: { text: 'a' } }] }, { text: 'done' }], {
      onMicrostep: (microstep) => seen.push(Object.isFrozen(microstep.context) && Object.isFrozen(microstep.context.usage)),
    });
    expect(run.result.reason).toBe('final_answer');
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.every(Boolean)).toBe(true);
    // The freeze bites: a change in place throws.
    const frozen = deepFreeze({ queue: [{ id: 'x' }] });
    expect(() => frozen.queue.push({ id: 'y' })).toThrow(TypeError);
  });
});
