import { describe, expect, it } from 'vitest';
import { policy, runTask, unpairedToolUses } from '../support/engine-harness.js';

const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });

describe('several tool calls in one response', () => {
  it('works through them in order and appends one user message with their results, same ids, same order', async () => {
    const run = await runTask([
      {
        content: [
          { type: 'text', text: 'three at once' },
          use('a', 'echo', { text: '1' }),
          use('b', 'echo', { text: '2' }),
          use('c', 'echo', { text: '3' }),
        ],
      },
      { text: 'ok' },
    ]);
    expect(run.result.reason).toBe('final_answer');
    expect(run.result.tool_calls).toBe(3);
    const results = run.messages[2]!;
    expect(results.role).toBe('user');
    expect(results.content.map((b) => (b as { tool_use_id: string }).tool_use_id)).toEqual(['a', 'b', 'c']);
    expect(run.messages).toHaveLength(4);
    // Three read-only calls the rules allow run together: one batch, not three executions one by one.
    expect(run.states.filter((s) => s === 'execute_tool.batch')).toHaveLength(1);
    expect(run.states).not.toContain('execute_tool.running');
    // The batch is decided in a routing state of its own, whose line carries each call's decision.
    const plannedAt = run.states.indexOf('ask_permission.planning_batch');
    expect(run.states.slice(plannedAt - 1, plannedAt + 2)).toEqual([
      'validate_tool',
      'ask_permission.planning_batch',
      'execute_tool.batch',
    ]);
    const planned = run.trace.find((l) => l.state === 'ask_permission.planning_batch');
    expect(planned?.batch?.map((b) => [b.call.id, b.decision.behavior])).toEqual([
      ['a', 'allow'],
      ['b', 'allow'],
      ['c', 'allow'],
    ]);
  });

  it('considers no batch for a call that no other follows', async () => {
    const run = await runTask([{ content: [use('a', 'echo', { text: '1' })] }, { text: 'ok' }]);
    expect(run.states).toContain('execute_tool.running');
    expect(run.states).not.toContain('ask_permission.planning_batch');
  });

  it('gives an invalid call in the middle an is_error result while the others still run', async () => {
    const run = await runTask([
      { content: [use('a', 'echo', { text: '1' }), use('b', 'nope', {}), use('c', 'echo', { wrong: true })] },
      { text: 'ok' },
    ]);
    const [a, b, c] = run.messages[2]!.content as Array<{ tool_use_id: string; is_error: boolean; content: string }>;
    expect(a).toMatchObject({ tool_use_id: 'a', is_error: false });
    expect(b).toMatchObject({ tool_use_id: 'b', is_error: true });
    expect(b!.content).toContain('Available tools: echo, slow, crash');
    expect(c).toMatchObject({ tool_use_id: 'c', is_error: true });
    expect(c!.content).toContain('required property');
    expect(run.states).toEqual([
      'build_context.starting',
      'build_context.measuring',
      'call_model.checking_limits',
      'call_model.requesting',
      'validate_tool',
      // Calls follow: the batch is considered in a state of its own; the invalid one ends the run, so a alone goes on.
      'ask_permission.planning_batch',
      'ask_permission.deciding',
      'execute_tool.running',
      'append_tool_result.collected',
      'validate_tool',
      'recover',
      'append_tool_result.collected',
      'validate_tool',
      'recover',
      'append_tool_result.collected',
      'call_model.requesting',
      'done',
    ]);
  });

  it('never executes a call whose input was truncated by max_tokens, and tells the model', async () => {
    const run = await runTask([{ content: [use('a', 'echo', { text: 'cut' })], stop_reason: 'max_tokens' }, { text: 'ok' }]);
    expect(run.result.reason).toBe('final_answer');
    expect(run.audit).toHaveLength(0);
    expect(run.trace.find((l) => l.state === 'recover')?.error?.code).toBe('TOOL_INPUT_TRUNCATED');
    expect(run.messages[2]!.content[0]).toMatchObject({ tool_use_id: 'a', is_error: true });
  });

  it('continues a paused turn with another model call', async () => {
    const run = await runTask([{ text: 'part one', stop_reason: 'pause_turn' }, { text: 'part two' }]);
    expect(run.states).toEqual([
      'build_context.starting',
      'build_context.measuring',
      'call_model.checking_limits',
      'call_model.requesting',
      'call_model.checking_limits',
      'call_model.requesting',
      'done',
    ]);
    expect(run.result).toMatchObject({ reason: 'final_answer', text: 'part two', turns: 2 });
  });
});

describe('permission decisions in the loop', () => {
  it('asks only for ask, and executes when the user allows', async () => {
    const asked: string[] = [];
    const askThenAllow = policy(
      () => ({ behavior: 'ask', decidedBy: 'default: echo asks' }),
      async (call) => {
        asked.push(call.id);
        return { behavior: 'allow', decidedBy: 'the user: yes' };
      },
    );
    const run = await runTask([{ content: [use('a', 'echo', { text: 'x' })] }, { text: 'ok' }], { permissions: askThenAllow });
    expect(asked).toEqual(['a']);
    expect(run.trace.find((l) => l.state === 'ask_permission.asking_user')?.decision?.behavior).toBe('ask');
    expect(run.trace.find((l) => l.state === 'execute_tool.running')?.decision).toEqual({ behavior: 'allow', decidedBy: 'the user: yes' });
    expect(run.result.reason).toBe('final_answer');
  });

  it('stops with permission_denied when the user says no', async () => {
    const askThenDeny = policy(
      () => ({ behavior: 'ask', decidedBy: 'default' }),
      async () => ({ behavior: 'deny', decidedBy: 'the user: no' }),
    );
    const run = await runTask([{ content: [use('a', 'echo', { text: 'x' })] }], { permissions: askThenDeny });
    expect(run.result).toMatchObject({ reason: 'permission_denied', decision: { decidedBy: 'the user: no' } });
    expect(unpairedToolUses(run.messages)).toEqual([]);
  });

  it('sends a plan-mode refusal back to the model instead of stopping', async () => {
    const plan = policy(() => ({
      behavior: 'deny',
      decidedBy: 'mode: plan',
      continueWithFeedback: true,
      message: 'In plan mode you may only read.',
    }));
    const run = await runTask([{ content: [use('a', 'echo', { text: 'x' })] }, { text: 'here is the plan' }], { permissions: plan });
    expect(run.result.reason).toBe('final_answer');
    expect(run.messages[2]!.content[0]).toMatchObject({ tool_use_id: 'a', is_error: true, content: 'In plan mode you may only read.' });
  });
});

describe('a conversation that continues', () => {
  it('appends the next task to the same messages, after the previous results', async () => {
    const first = await runTask([{ text: 'one' }], { prompt: 'first' });
    const second = await runTask([{ text: 'two' }], { prompt: 'second', messages: first.messages });
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(second.transcript).toHaveLength(2);
  });

  it("never reports an earlier task's answer as the text of a task that got none", async () => {
    const first = await runTask([{ text: 'one' }], { prompt: 'first' });
    const second = await runTask([{ error: { type: 'api_error' } }], { prompt: 'second', messages: first.messages });
    expect(second.result).toMatchObject({ reason: 'model_error', text: '' });
  });
});
