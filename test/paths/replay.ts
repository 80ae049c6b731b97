import { createActor, fromCallback, fromPromise, type EventObject } from 'xstate';
import { stopDecision, type EngineContext } from '../../machines/engine-context.js';
import type { CallModelInput } from '../../machines/query-engine.js';
import type { DeadlineEvent } from '../../machines/engine-setup.js';
import type { Message, ModelResponse, PermissionDecision, ToolCall, ToolResult } from '../../machines/types.js';
import type { CompactContextInput, CompactionOutcome } from '../../machines/context-budget.js';
import type { HookOutcome, HookRunInput } from '../../machines/hooks.js';
import type { EngineOutput } from '../../machines/engine-context.js';
import type { SubagentInput } from '../../machines/subagent-steps.js';
import { observeMicrosteps, statePath, type Microstep } from '../../src/engine/step-adapter.js';
import { unpairedToolUses } from '../support/engine-harness.js';
import type { Coverage } from './coverage.js';
import { invokedIn, LIMITS, routingView, testMachine, type EngineSnapshot } from '../../src/paths/engine-model.js';
import { pathName, type EnginePath } from '../../src/paths/generate-paths.js';
import { Oracle } from './oracle.js';
import { keepConversation } from '../../src/engine/conversation.js';

/** One invocation of a controlled actor: the path's next done/error event settles it. */
interface Invocation {
  /** The invocation's id in the chart (`callModel`, `preToolUseHooks`): what its done/error events name. */
  id: string;
  input: unknown;
  signal: AbortSignal;
  settled: boolean;
  settle: (outcome: { output: unknown } | { error: unknown }) => void;
}

/**
 * What a real compaction of the input's messages looks like: everything before the last assistant
 * message becomes one summary (so no tool_use loses its result); null when there is no assistant message.
 */
export function compactionOf({ tokens, reason }: CompactContextInput, messages: readonly Message[]): CompactionOutcome {
  let cut = -1;
  for (let i = messages.length - 1; i >= 1; i--) {
    if (messages[i]!.role === 'assistant') {
      cut = i;
      break;
    }
  }
  if (cut < 1) return null;
  return {
    summary: { role: 'user', content: [{ type: 'text', text: 'summary of the earlier part' }] },
    removed: cut,
    tokensBefore: tokens,
    tokensAfter: 100,
    reason,
    usage: { input_tokens: 50, output_tokens: 20 },
  };
}

/** The actors the root invokes (the deadline): alive in every state. */
const ROOT_INVOKED = testMachine.root.invoke.map((i) => i.id);

const turnOfEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function fail(path: string, step: number, message: string): never {
  throw new Error(`step ${step} of [${path}]: ${message}`);
}

function shape(messages: readonly Message[]): string[][] {
  return messages.map((m) =>
    m.content.map((b) => {
      if (b.type === 'tool_use') return `${m.role}:tool_use:${(b as { id: string }).id}`;
      if (b.type === 'tool_result') {
        const r = b as { tool_use_id: string; is_error?: boolean };
        return `${m.role}:tool_result:${r.tool_use_id}:${r.is_error ? 'err' : 'ok'}`;
      }
      return `${m.role}:${b.type}`;
    }),
  );
}

/**
 * Replays a generated path against a real actor of the chart, whose invoked actors are promises
 * the path settles one by one, and checks after every event and every microstep that the actor
 * agrees with the model and the oracle and keeps the engine's invariants.
 */
export async function replay(path: EnginePath, coverage: Coverage): Promise<void> {
  const name = pathName(path);
  let stepIndex = 0;
  const invocations: Invocation[] = [];
  // The conversation, as the engine keeps it from the chart's emits.
  const transcript: Message[] = [...(path.start.input.messages ?? [])];
  /** The decision that stands for each call id, as the chart's context last had it (the rules', a hook's, the user's). */
  const decisions = new Map<string, PermissionDecision>();

  const controlled = <T, I>() =>
    fromPromise<T, I>(
      ({ input, signal, self }) =>
        new Promise<T>((resolve, reject) => {
          const { id } = self;
          if (id === 'askPermission') {
            const { call, decision } = input as { call: ToolCall; decision: PermissionDecision };
            if (decision.behavior !== 'ask') fail(name, stepIndex, `asked the user about ${call.id} without an ask decision`);
          }
          // A tool call, a subagent, a batch's child: each runs only with an allow decision.
          if (id === 'executeTool' || id === 'subagent' || id.startsWith('batch-')) {
            const { call } = input as { call: ToolCall };
            if (decisions.get(call.id)?.behavior !== 'allow') fail(name, stepIndex, `ran ${call.id} (${id}) without an allow decision`);
          }
          invocations.push({
            id,
            input,
            signal,
            settled: false,
            settle: (outcome) => ('output' in outcome ? resolve(outcome.output as T) : reject(outcome.error)),
          });
        }),
    );

  const machine = coverage.instrument(testMachine).provide({
    actors: {
      callModel: controlled<ModelResponse, CallModelInput>(),
      askPermission: controlled<PermissionDecision, { call: ToolCall; decision: PermissionDecision }>(),
      executeTool: controlled<ToolResult, { call: ToolCall }>(),
      subagent: controlled<EngineOutput, SubagentInput>(),
      compactContext: controlled<CompactionOutcome, CompactContextInput>(),
      runHooks: controlled<HookOutcome, HookRunInput>(),
      deadline: fromCallback<DeadlineEvent, { startedAt: number; timeoutMs: number }>(() => undefined),
    },
  });

  /** Who made a decision, read from what the chart recorded as deciding it. */
  const whoDecided = (decision: PermissionDecision | null | undefined): string => {
    const by = decision?.decidedBy ?? '';
    if (by === 'the permission prompt failed') return 'a failed prompt';
    if (by.startsWith('user:')) return 'the user';
    if (by.startsWith('hook')) return 'a hook';
    return 'the policy';
  };
  /** What a transition from `source` into `state` (full paths) shows, by the top-level states involved. */
  const recordOutcome = (state: string, context: EngineContext, source: string) => {
    const who = whoDecided(stopDecision(context));
    const [to] = state.split('.');
    const [from] = source.split('.');
    if (to === 'recover') {
      coverage.outcome(`recover from ${from} after ${context.current?.error?.code}${from === 'ask_permission' ? ` by ${who}` : ''}`);
    }
    if (to === 'execute_tool' && !state.endsWith('.batch')) coverage.outcome(`execute_tool allowed by ${who}`);
    if (to === 'append_tool_result') coverage.outcome(`tool result ${context.results.at(-1)?.is_error ? 'is_error' : 'ok'}`);
    if (to === 'done' && context.stopReason === 'permission_denied') coverage.outcome(`permission_denied by ${who}`);
    if (source === 'call_model.stop_hooks' && to === 'call_model' && context.hooks.stopActive)
      coverage.outcome('the model goes on after a Stop hook blocked');
    if (to === 'call_model' && transcript[0]?.content.length === 2) coverage.outcome('the prompt carries a hook context');
  };

  const inspect = observeMicrosteps(({ state, context, transitions }: Microstep) => {
    const taken = transitions();
    for (const t of taken) coverage.transition(t.id);
    coverage.state(state);
    const moved = taken.find((t) => t.target !== null);
    if (moved) recordOutcome(state, context, moved.source);
    if (context.current?.decision) decisions.set(context.current.call.id, context.current.decision);
    for (const { call, decision } of context.batch) decisions.set(call.id, decision);
    if (context.turn > context.maxTurns) fail(name, stepIndex, `turn ${context.turn} > maxTurns`);
    if (context.toolCallCount > context.maxToolCalls) fail(name, stepIndex, `toolCallCount ${context.toolCallCount} > maxToolCalls`);
    if (state === 'execute_tool.running' || state === 'execute_tool.subagent') {
      const current = context.current;
      if (current?.decision?.behavior !== 'allow') fail(name, stepIndex, `entered execute_tool for ${current?.call.id} without allow`);
    }
  });

  const actor = createActor(machine, { input: path.start.input, inspect });
  // The conversation lives outside the chart, as in the engine: kept from what the chart emits.
  keepConversation(actor, transcript);
  const oracle = new Oracle(path.start.input);

  const check = (expectedModel: EngineSnapshot) => {
    const snapshot = actor.getSnapshot();
    const { context } = snapshot;
    const actual = routingView(snapshot);
    const model = routingView(expectedModel);
    if (JSON.stringify(actual) !== JSON.stringify(model)) {
      fail(name, stepIndex, `actor and model disagree:\n actor ${JSON.stringify(actual)}\n model ${JSON.stringify(model)}`);
    }
    const expected = oracle.expected();
    const state = statePath(snapshot.value);
    if (state !== expected.state) fail(name, stepIndex, `in ${state}, the oracle expects ${expected.state}`);
    if (context.turn !== expected.turn || context.toolCallCount !== expected.toolCalls) {
      fail(name, stepIndex, `counters ${context.turn}/${context.toolCallCount}, expected ${expected.turn}/${expected.toolCalls}`);
    }
    // What runs is exactly what the state invokes: no actor spawned on the side, none left over.
    const live = invocations.filter((i) => !i.settled && !i.signal.aborted);
    const wanted = snapshot.status === 'active' ? invokedIn(snapshot) : [];
    if (JSON.stringify(live.map((i) => i.id)) !== JSON.stringify(wanted)) {
      fail(name, stepIndex, `in ${state}, running actors are [${live.map((i) => i.id)}], the state invokes [${wanted}]`);
    }
    const children = Object.entries(snapshot.children)
      .filter(([id, child]) => !ROOT_INVOKED.includes(id) && child?.getSnapshot().status === 'active')
      .map(([id]) => id);
    if (JSON.stringify(children) !== JSON.stringify(wanted)) fail(name, stepIndex, `in ${state}, the actor's children are [${children}]`);
    const drained = context.queue.length === 0 || snapshot.status === 'done';
    const settledMessages = drained ? transcript : transcript.slice(0, -1);
    const unpaired = unpairedToolUses(settledMessages);
    if (unpaired.length > 0) fail(name, stepIndex, `tool_use without exactly one tool_result: ${unpaired.join(', ')}`);
    if (snapshot.status === 'done') {
      if (snapshot.output?.reason !== expected.reason)
        fail(name, stepIndex, `done with ${snapshot.output?.reason}, the path implies ${expected.reason}`);
      if (JSON.stringify(shape(transcript)) !== JSON.stringify(expected.transcript)) {
        fail(name, stepIndex, `transcript ${JSON.stringify(shape(transcript))}, expected ${JSON.stringify(expected.transcript)}`);
      }
      coverage.reason(snapshot.output.reason);
    }
  };

  actor.start();
  try {
    await turnOfEventLoop();
    check(path.steps[0]!.state);
    for (stepIndex = 1; stepIndex < path.steps.length; stepIndex++) {
      const { event, state } = path.steps[stepIndex]!;
      const step = event as EventObject & { output?: unknown; error?: unknown; variant?: string };
      const before = invocations.filter((i) => !i.settled && !i.signal.aborted);
      const actorEvent = /^xstate\.(done|error)\.actor\.([\w-]+)$/.exec(step.type);
      if (actorEvent) {
        const id = actorEvent[2]!;
        const invocation = before.find((i) => i.id === id);
        if (!invocation) fail(name, stepIndex, `${step.type} but ${id} is not running`);
        invocation.settled = true;
        if (actorEvent[1] === 'done') {
          const output = id === 'compactContext' ? compactionOf(invocation.input as CompactContextInput, transcript) : step.output;
          invocation.settle({ output });
        } else {
          invocation.settle({ error: step.error });
        }
      } else {
        actor.send(step as { type: 'ABORT' } | { type: 'CLOCK.TICK'; now: number });
      }
      await turnOfEventLoop();
      oracle.apply(step as Parameters<Oracle['apply']>[0]);
      coverage.variant(step.variant ?? step.type);
      const stopping =
        step.type === 'ABORT' || (step.type === 'CLOCK.TICK' && (step as { now?: number }).now! >= LIMITS.startedAt + LIMITS.timeoutMs);
      const cancelled = invocations.filter((i) => !i.settled && i.signal.aborted && !before.includes(i));
      if (cancelled.length > 0) fail(name, stepIndex, `started and cancelled at once: ${cancelled.map((i) => i.id)}`);
      if (!stopping && before.some((i) => !i.settled && i.signal.aborted))
        fail(name, stepIndex, 'a running actor was cancelled without abort or timeout');
      check(state);
    }
  } finally {
    actor.stop();
  }
}
