import { createActor, fromCallback, fromPromise, waitFor, type AnyActorLogic, type EventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { EngineInput, EngineOutput } from '../../machines/engine-context.js';
import { decidePermissionAction, queryEngine, validateCallAction, type CallModelInput } from '../../machines/query-engine.js';
import { planBatchAction } from '../../machines/batch-steps.js';
import type { SubagentInput } from '../../machines/subagent-steps.js';
import type { ModelResponse, ToolCall } from '../../machines/types.js';
import { statePath } from '../../src/engine/step-adapter.js';

/**
 * Issue 36: a subagent is a child of the parent chart's actor system, spawned by the state that runs
 * the task call with its agent path as `systemId`, given its call and path as input, stopped when the
 * state is left, its answer read from its done event's output.
 */

const usage = { input_tokens: 1, output_tokens: 1 };
const task = (id: string): ToolCall => ({ id, name: 'task', input: { description: 'look', prompt: 'look it up', subagent_type: 'scout' } });
const input: EngineInput = { sessionId: 's', userInput: 'go', maxTurns: 5, maxToolCalls: 5, timeoutMs: 60_000, startedAt: 0 };

function childOutput(reason: EngineOutput['reason'], answer: string, agent: string): EngineOutput {
  return {
    reason,
    turn: 1,
    toolCallCount: 0,
    usage,
    error: null,
    decision: null,
    stoppedCall: null,
    modelStopReason: 'end_turn',
    answer,
    agent,
  };
}

/** The chart with a model that asks for `calls` once, then answers; every call valid and allowed; `subagent` as given. */
function chart(calls: ToolCall[], subagent: AnyActorLogic, batch = false) {
  let round = 0;
  return queryEngine.provide({
    actors: {
      callModel: fromPromise<ModelResponse, CallModelInput>(async () =>
        round++ === 0
          ? { content: calls.map((c) => ({ type: 'tool_use', ...c })), stopReason: 'tool_use', usage }
          : { content: [{ type: 'text', text: 'thanks' }], stopReason: 'end_turn', usage },
      ),
      subagent,
      deadline: fromCallback(() => undefined),
    },
    actions: {
      validateCall: validateCallAction(() => ({ ok: true })),
      decidePermission: decidePermissionAction(() => ({ behavior: 'allow', decidedBy: 'test' })),
      planBatch: planBatchAction(
        batch
          ? {
              validate: () => ({ ok: true }),
              decide: () => ({ behavior: 'allow', decidedBy: 'test' }),
              concurrencySafe: () => true,
              preToolUse: () => false,
              postToolUse: () => false,
            }
          : null,
      ),
    },
  });
}

describe('subagents as children of the chart', () => {
  it('spawns the child in execute_tool.subagent under its agent path, with the call as input, and answers with its output', async () => {
    const seen: SubagentInput[] = [];
    let finish: (output: EngineOutput) => void = () => undefined;
    const subagent = fromPromise<EngineOutput, SubagentInput>(({ input: child }) => {
      seen.push(child);
      return new Promise((resolve) => {
        finish = resolve;
      });
    });
    const actor = createActor(chart([task('t1')], subagent), { input });
    const messages: unknown[] = [];
    actor.on('message', (e) => messages.push(e.message));
    actor.start();
    await waitFor(actor, (s) => statePath(s.value) === 'execute_tool.subagent');
    // The child is in the parent's actor system, found by its agent path.
    expect(actor.system.get('main/task-1')).toBeDefined();
    expect(seen).toEqual([{ call: task('t1'), path: 'main/task-1' }]);
    finish(childOutput('final_answer', 'found it', 'main/task-1'));
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.output?.reason).toBe('final_answer');
    expect(messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'found it', is_error: false }],
    });
    // Its usage counts in the parent's.
    expect(done.output?.usage.input_tokens).toBe(3);
  });

  it('stops the child when the state is left (an abort), and pairs its call', async () => {
    let signal: AbortSignal | undefined;
    const subagent = fromPromise<EngineOutput, SubagentInput>(({ signal: s }) => {
      signal = s;
      return new Promise(() => undefined);
    });
    const actor = createActor(chart([task('t1')], subagent), { input });
    const messages: Array<{ content: unknown[] }> = [];
    actor.on('message', (e) => messages.push(e.message as { content: unknown[] }));
    actor.start();
    await waitFor(actor, (s) => statePath(s.value) === 'execute_tool.subagent');
    actor.send({ type: 'ABORT' });
    expect(actor.getSnapshot().output?.reason).toBe('user_abort');
    expect(signal?.aborted).toBe(true);
    expect(actor.system.get('main/task-1')).toBeUndefined();
    expect(messages.at(-1)?.content).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'interrupted: task aborted by the user', is_error: true },
    ]);
  });

  it("tells the child why it stops: the task's timeout when the parent's deadline passes, a plain abort otherwise", async () => {
    const told = async (stop: { type: 'ABORT' } | { type: 'CLOCK.TICK'; now: number }) => {
      const received: EventObject[] = [];
      const subagent = fromCallback<EventObject, SubagentInput>(({ receive }) => receive((event) => received.push(event)));
      const actor = createActor(chart([task('t1')], subagent), { input });
      actor.start();
      await waitFor(actor, (s) => statePath(s.value) === 'execute_tool.subagent');
      actor.send(stop);
      return { reason: actor.getSnapshot().output?.reason, received };
    };
    expect(await told({ type: 'CLOCK.TICK', now: input.startedAt + input.timeoutMs })).toEqual({
      reason: 'timeout',
      received: [{ type: 'ABORT', reason: 'timeout' }],
    });
    expect(await told({ type: 'ABORT' })).toEqual({ reason: 'user_abort', received: [{ type: 'ABORT' }] });
  });

  it('runs a batch of task calls as children numbered in the order they start; a child that stopped is an is_error result, in the model order', async () => {
    const finishers = new Map<string, (output: EngineOutput) => void>();
    const subagent = fromPromise<EngineOutput, SubagentInput>(
      ({ input: child }) => new Promise((resolve) => finishers.set(child.path, resolve)),
    );
    const actor = createActor(chart([task('a'), task('b')], subagent, true), { input });
    const messages: Array<{ content: unknown[] }> = [];
    actor.on('message', (e) => messages.push(e.message as { content: unknown[] }));
    actor.start();
    await waitFor(actor, (s) => statePath(s.value) === 'execute_tool.batch');
    expect(actor.getSnapshot().context.batch.map((b) => [b.call.id, b.status, b.agent])).toEqual([
      ['a', 'running', 'main/task-1'],
      ['b', 'running', 'main/task-2'],
    ]);
    expect(actor.system.get('main/task-2')).toBeDefined();
    // The second finishes first; the results still go back in the model's order.
    finishers.get('main/task-2')?.(childOutput('max_tool_calls', 'half way', 'main/task-2'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(actor.getSnapshot().context.batch.map((b) => b.status)).toEqual(['running', 'done']);
    finishers.get('main/task-1')?.(childOutput('final_answer', 'found a', 'main/task-1'));
    await waitFor(actor, (s) => s.status === 'done');
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'found a', is_error: false },
      {
        type: 'tool_result',
        tool_use_id: 'b',
        content: 'The agent scout (main/task-2) stopped with max_tool_calls.\nIts last words: half way',
        is_error: true,
      },
    ]);
  });
});
