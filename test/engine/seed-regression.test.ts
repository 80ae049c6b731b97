import { describe, expect, it } from 'vitest';
import { runTask, unpairedToolUses } from '../support/engine-harness.js';

describe('seed regression: invalid tool input, corrected, then an answer', () => {
  const script = [
    { content: [{ type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 42 } }] },
    { content: [{ type: 'tool_use', id: 'toolu_2', name: 'echo', input: { text: 'hello' } }] },
    { text: 'The echo said hello.' },
  ];
  // The seed's eight states at the top level; the waits and routing inside them by their full path.
  const expected = [
    'build_context.starting',
    'build_context.measuring',
    'call_model.checking_limits',
    'call_model.requesting',
    'validate_tool',
    'recover',
    'append_tool_result.collected',
    'call_model.requesting',
    'validate_tool',
    'ask_permission.deciding',
    'execute_tool.running',
    'append_tool_result.collected',
    'call_model.requesting',
    'done',
  ];

  it('passes through the seed sequence on the event stream', async () => {
    const run = await runTask(script);
    expect(run.states).toEqual(expected);
    expect(run.result.reason).toBe('final_answer');
    expect(run.result.text).toBe('The echo said hello.');
  });

  it('writes the same sequence to trace.jsonl with turn count, error code and corrected input', async () => {
    const run = await runTask(script);
    expect(run.trace.map((l) => l.state)).toEqual(expected);
    // One ordered log: the task_start line is 0, and every line after it (states and the rest) one more.
    const seqs = run.log.map((l) => l.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    expect(run.log[0]).toMatchObject({ event: 'task_start', chart: expect.stringMatching(/^[0-9a-f]{14}$/) });
    const recover = run.trace.find((l) => l.state === 'recover')!;
    expect(recover.error?.code).toBe('TOOL_INPUT_INVALID');
    expect(recover.error?.message).toContain('input.text');
    expect(recover.call).toEqual({ id: 'toolu_1', name: 'echo', input: { text: 42 } });
    const executed = run.trace.find((l) => l.state === 'execute_tool.running')!;
    expect(executed.call?.input).toEqual({ text: 'hello' });
    expect(executed.decision?.behavior).toBe('allow');
    const done = run.trace.at(-1)!;
    expect(done.reason).toBe('final_answer');
    expect(done.turn).toBe(3);
    expect(done.tool_call_count).toBe(1);
  });

  it('sends the validation error back as an is_error tool_result with the real tool_use_id', async () => {
    const run = await runTask(script);
    expect(unpairedToolUses(run.messages)).toEqual([]);
    const firstResult = run.messages[2]!;
    expect(firstResult.role).toBe('user');
    expect(firstResult.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true });
    expect(run.transcript).toEqual(run.messages);
  });
});
