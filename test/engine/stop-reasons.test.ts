import { describe, expect, it } from 'vitest';
import type { ModelClient } from '../../src/model/types.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { policy, runTask, testTools, unpairedToolUses } from '../support/engine-harness.js';

const echo = (text: string, id?: string) => ({ type: 'tool_use', name: 'echo', input: { text }, ...(id ? { id } : {}) });

describe('stop reasons through query()', () => {
  it('final_answer: a text answer ends the task with exit reason final_answer', async () => {
    const run = await runTask([{ text: 'all done' }]);
    expect(run.result).toMatchObject({ reason: 'final_answer', is_error: false, text: 'all done', turns: 1 });
    expect(run.trace.at(-1)).toMatchObject({ state: 'done', reason: 'final_answer' });
  });

  it('max_turns: a model that keeps calling tools stops at the turn limit with its last results paired', async () => {
    const run = await runTask([{ content: [echo('a')] }, { content: [echo('b')] }, { content: [echo('c')] }], { maxTurns: 2 });
    expect(run.result).toMatchObject({ reason: 'max_turns', turns: 2, tool_calls: 2 });
    expect(run.states.slice(-2)).toEqual(['append_tool_result.collected', 'done']);
    expect(unpairedToolUses(run.messages)).toEqual([]);
  });

  it('max_tool_calls: the call past the budget is not executed and still gets a tool_result', async () => {
    const run = await runTask([{ content: [echo('a', 't1'), echo('b', 't2')] }], { maxToolCalls: 1 });
    expect(run.result).toMatchObject({ reason: 'max_tool_calls', tool_calls: 1 });
    expect(run.audit).toHaveLength(1);
    const last = run.messages.at(-1)!;
    expect(last.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'echo: a', is_error: false },
      { type: 'tool_result', tool_use_id: 't2', content: expect.stringContaining('limit of tool calls'), is_error: true },
    ]);
  });

  it('max_tool_calls reports no validation error when the call past the budget is invalid (regression)', async () => {
    const invalid = { type: 'tool_use', id: 't2', name: 'echo', input: { text: 42 } };
    const run = await runTask([{ content: [echo('a', 't1'), invalid] }], { maxToolCalls: 1 });
    expect(run.result.reason).toBe('max_tool_calls');
    expect(run.result.error).toBeUndefined();
    expect(run.trace.at(-1)).toMatchObject({ state: 'done', reason: 'max_tool_calls', call: { id: 't2' } });
    expect(run.trace.at(-1)).not.toHaveProperty('error');
  });

  it('a recovered error does not leak into the next call or into a later stop', async () => {
    const invalid = { type: 'tool_use', id: 't1', name: 'echo', input: { text: 42 } };
    const run = await runTask([{ content: [invalid, echo('b', 't2')] }, { content: [echo('c', 't3')] }], { maxTurns: 2 });
    expect(run.trace.find((l) => l.state === 'recover')).toMatchObject({ call: { id: 't1' }, error: { code: 'TOOL_INPUT_INVALID' } });
    expect(run.trace.filter((l) => l.state === 'execute_tool.running').map((l) => [l.call?.id, l.error])).toEqual([
      ['t2', undefined],
      ['t3', undefined],
    ]);
    expect(run.result.reason).toBe('max_turns');
    expect(run.result.error).toBeUndefined();
  });

  it('timeout: a model slower than the deadline stops with timeout', async () => {
    const run = await runTask([{ text: 'late', delay_ms: 10_000 }], { timeoutMs: 30 });
    expect(run.result.reason).toBe('timeout');
    expect(run.states).toEqual([
      'build_context.starting',
      'build_context.measuring',
      'call_model.checking_limits',
      'call_model.requesting',
      'done',
    ]);
  });

  it('permission_denied: a refused call stops the task, names what decided, and is paired', async () => {
    const deny = policy(() => ({ behavior: 'deny', decidedBy: 'deny rule "echo" from --deny' }));
    const run = await runTask([{ content: [echo('a', 't1'), echo('b', 't2')] }], { permissions: deny });
    expect(run.result).toMatchObject({ reason: 'permission_denied', decision: { decidedBy: 'deny rule "echo" from --deny' } });
    expect(run.trace.find((l) => l.state === 'ask_permission.deciding')?.decision?.behavior).toBe('deny');
    expect(run.states).not.toContain('execute_tool.running');
    expect(unpairedToolUses(run.messages)).toEqual([]);
    expect(JSON.stringify(run.messages.at(-1))).toContain('deny rule \\"echo\\" from --deny');
  });

  it('tool_error: a tool that throws stops the task with the cause', async () => {
    const run = await runTask([{ content: [{ type: 'tool_use', id: 't1', name: 'crash', input: {} }] }]);
    expect(run.result).toMatchObject({ reason: 'tool_error', error: { code: 'TOOL_FAILED', message: 'disk on fire' } });
    expect(run.audit[0]).toMatchObject({ is_error: true, crashed: true });
    expect(unpairedToolUses(run.messages)).toEqual([]);
  });

  it('model_error: a failed model request stops with the cause and keeps the transcript', async () => {
    const run = await runTask([{ error: { type: 'overloaded_error', message: 'Overloaded' } }]);
    expect(run.result).toMatchObject({ reason: 'model_error', error: { code: 'MODEL_ERROR', message: 'Overloaded' } });
    expect(run.transcript).toEqual([{ role: 'user', content: [{ type: 'text', text: 'do the task' }] }]);
  });

  it('model_error: a request past the end of the script says which request was unexpected', async () => {
    const run = await runTask([{ content: [echo('a')] }]);
    expect(run.result.reason).toBe('model_error');
    expect(run.result.error?.message).toBe('scripted model: request 2 has no response (the script has 1)');
  });

  it('user_abort during a slow model call aborts the request signal', async () => {
    const controller = new AbortController();
    let requestSignal: AbortSignal | undefined;
    const hanging: ModelClient = {
      name: 'hanging',
      createMessage: ({ signal }) => {
        requestSignal = signal;
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      },
    };
    const run = await runTask([], {
      model: hanging,
      signal: controller.signal,
      onEvent: (e) => e.type === 'state' && e.name === 'call_model.requesting' && setTimeout(() => controller.abort(), 10),
    });
    expect(run.result.reason).toBe('user_abort');
    expect(requestSignal?.aborted).toBe(true);
  });

  it('user_abort during a slow tool run alone aborts the tool and pairs every pending call', async () => {
    const controller = new AbortController();
    const log = { aborted: [] as string[] };
    const run = await runTask(
      [
        {
          content: [echo('first', 't1'), { type: 'tool_use', id: 't2', name: 'slow', input: { ms: 60_000 } }, echo('third', 't3')],
        },
      ],
      {
        // Not read-only here, so it runs alone, after t1 and before t3.
        tools: new ToolRegistry(testTools(log).map((t) => (t.name === 'slow' ? { ...t, readOnly: false } : t))),
        signal: controller.signal,
        onEvent: (e) => e.type === 'tool_start' && e.call.name === 'slow' && setTimeout(() => controller.abort(), 10),
      },
    );
    expect(run.result.reason).toBe('user_abort');
    expect(log.aborted).toEqual(['slow']);
    expect(run.messages.at(-1)!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'echo: first', is_error: false },
      { type: 'tool_result', tool_use_id: 't2', content: 'interrupted: task aborted by the user', is_error: true },
      { type: 'tool_result', tool_use_id: 't3', content: 'not executed: task aborted by the user', is_error: true },
    ]);
    expect(run.transcript).toEqual(run.messages);
  });

  it('user_abort during a batch aborts every call of it and pairs each one', async () => {
    const controller = new AbortController();
    const log = { aborted: [] as string[] };
    const slow = (id: string) => ({ type: 'tool_use', id, name: 'slow', input: { ms: 60_000 } });
    const run = await runTask([{ content: [slow('t1'), slow('t2'), echo('third', 't3')] }], {
      tools: new ToolRegistry(testTools(log)),
      signal: controller.signal,
      onEvent: (e) => e.type === 'state' && e.name === 'execute_tool.batch' && setTimeout(() => controller.abort(), 10),
    });
    expect(run.result.reason).toBe('user_abort');
    expect(log.aborted).toEqual(['slow', 'slow']);
    expect(run.messages.at(-1)!.content).toEqual(
      ['t1', 't2', 't3'].map((id) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: 'interrupted: task aborted by the user',
        is_error: true,
      })),
    );
    expect(run.transcript).toEqual(run.messages);
  });
});
