import { createActor, fromPromise } from 'xstate';
import { decidePermissionAction, queryEngine, validateCallAction, type CallModelInput } from '../machines/query-engine.js';
import type { Message, ModelResponse, ToolCall, ToolResult } from '../machines/types.js';
import { yieldTurn } from '../src/system/fair-turns.js';

/**
 * The engine's chart alone: the same statechart, with instant actors (the same tool_use answers
 * as roundsModel, a tool that answers at once), every call valid and allowed, no microstep
 * observed, nothing recorded, no event yielded. What is left is XState's interpreter running
 * this chart's round (its microsteps, snapshots, two invoked actors); row 1's engine figure
 * minus this is what src/engine adds to it (the actors, the evidence lines, the events).
 * @example await chartAloneRun(1000); // resolves once the chart is done after 1000 tool rounds
 */
export async function chartAloneRun(rounds: number): Promise<void> {
  let requests = 0;
  const messages: Message[] = [];
  const machine = queryEngine.provide({
    actors: {
      callModel: fromPromise<ModelResponse, CallModelInput>(async () => {
        // As the engine's callModel does before every request: a turn of the event loop.
        await yieldTurn();
        const k = requests++;
        return k < rounds
          ? {
              content: [{ type: 'tool_use', id: `toolu_bench_${k}`, name: 'noop', input: { n: k } }],
              stopReason: 'tool_use',
              usage: { input_tokens: 0, output_tokens: 0 },
            }
          : { content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn', usage: { input_tokens: 0, output_tokens: 0 } };
      }),
      executeTool: fromPromise<ToolResult, { call: ToolCall }>(async () => ({ content: 'ok', isError: false })),
    },
    actions: {
      validateCall: validateCallAction(() => ({ ok: true })),
      decidePermission: decidePermissionAction(() => ({ behavior: 'allow', decidedBy: 'bench' })),
    },
  });
  const actor = createActor(machine, {
    input: {
      sessionId: 'bench',
      userInput: 'go',
      maxTurns: rounds + 2,
      maxToolCalls: rounds + 1,
      timeoutMs: 3_600_000,
      startedAt: Date.now(),
    },
  });
  // The conversation is kept as query() keeps it: appended as the chart emits it.
  actor.on('message', ({ message }) => messages.push(message));
  const done = new Promise<void>((resolve) => actor.subscribe({ complete: resolve }));
  actor.start();
  await done;
  const output = actor.getSnapshot().output;
  if (output?.reason !== 'final_answer' || output.toolCallCount !== rounds) {
    throw new Error(`the chart alone ended with ${output?.reason} after ${output?.toolCallCount} tool calls (expected ${rounds})`);
  }
}
