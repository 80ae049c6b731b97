import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { runTask } from '../support/engine-harness.js';

describe('per-round cost does not grow with the conversation', () => {
  it('never copies the message history: every microstep sees the one array the caller passed', async () => {
    const messages: Message[] = [];
    const seen = new Set<unknown>();
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
      onMicrostep: (microstep) => seen.add(microstep.context.messages),
    });
    expect(run.result.reason).toBe('final_answer');
    expect([...seen]).toEqual([messages]);
    expect(messages).toHaveLength(1 + rounds * 2 + 1);
  });
});
