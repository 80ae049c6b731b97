import type { AnyStateNode, Snapshot, SnapshotFrom } from 'xstate';
import { serializeSnapshot } from 'xstate/graph';
import { COMPACTION_THRESHOLD, nearWindow } from '../../machines/context-budget.js';
import type { EngineInput } from '../../machines/engine-context.js';
import { HOOK_EVENTS } from '../../machines/hooks.js';
import { decidePermissionAction, queryEngine, toolHookDue, validateCallAction } from '../../machines/query-engine.js';
import { startBatchCallsAction, startSubagentAction } from '../../machines/engine-setup.js';
import { planBatchAction } from '../../machines/batch-steps.js';
import type { ModelResponse, PermissionDecision, ToolCall, Validation } from '../../machines/types.js';
import { statePath } from '../engine/step-adapter.js';
import {
  batchToolEvents,
  CONTEXT_WINDOW,
  HOOKED_ANSWER,
  LIMITS,
  outcomesOf,
  subagentEvents,
  type PathEvent,
  type Perm,
  rootEvents,
} from './path-events.js';
import { isSubagentCall, lastChildPath } from '../../machines/subagent-steps.js';
import { batchChildId } from '../../machines/batch-steps.js';

export { ALL_VARIANTS, CONTEXT_WINDOW, HOOKED_ANSWER, LIMITS, NEAR_WINDOW_USAGE, type PathEvent, type Perm } from './path-events.js';

/**
 * The model the paths are generated from: the real chart with small limits, a deterministic
 * validator and a permission policy read from the call's own input, and one event per outcome
 * of each invoked actor (path-events.ts). A variant can be left out (PATHS_DROP=name) to show that
 * the coverage check notices.
 */

/** Every event has hooks; the tool events' matchers take only calls marked `hooked`, Stop only answers marked so. */
export const INPUT: EngineInput = {
  sessionId: 'paths',
  userInput: 'do the task',
  ...LIMITS,
  contextWindow: CONTEXT_WINDOW,
  baseTokens: 0,
  hooks: HOOK_EVENTS,
  sessionStart: 'startup',
};

/**
 * How a task can start. The chart decides once, at the start, which of SessionStart and
 * UserPromptSubmit run, so the other sides of those guards need other inputs. Only the first start
 * is explored in full; the others stop at the first model answer, which is all they change.
 */
export interface Start {
  /** Shown before the events of its paths; empty for the main start. */
  name: string;
  input: EngineInput;
  /** Rounds explored: events stop once this many model answers came. */
  turns: number;
}

export const STARTS: readonly Start[] = [
  { name: '', input: INPUT, turns: Number.POSITIVE_INFINITY },
  { name: 'no hooks', input: { ...INPUT, hooks: [] }, turns: 1 },
  { name: 'next task of the run', input: { ...INPUT, sessionStart: null }, turns: 1 },
  { name: 'resumed, SessionStart hooks only', input: { ...INPUT, hooks: ['SessionStart'], sessionStart: 'resume' }, turns: 1 },
  // What every request carries (system prompt, tools) is already past the threshold: compact before the first request.
  { name: 'no hooks, near the window', input: { ...INPUT, hooks: [], baseTokens: CONTEXT_WINDOW * COMPACTION_THRESHOLD }, turns: 1 },
];

/** The model's stand-in for a settings matcher: a call whose input says `hooked: true`. */
export function hookMatches(call: ToolCall): boolean {
  return (call.input as { hooked?: unknown } | null)?.hooked === true;
}

/** "echo" with `{text: string}` and "task" with `{subagent_type: string}` are the valid tools; "nope" does not exist; the schema of "broken" does not compile. */
export function validateEcho(call: ToolCall): Validation {
  if (call.name === 'broken') throw new Error('the schema of "broken" does not compile');
  if (call.name === 'task' && typeof (call.input as { subagent_type?: unknown } | null)?.subagent_type === 'string') return { ok: true };
  if (call.name !== 'echo') {
    return { ok: false, error: { code: 'TOOL_NOT_FOUND', message: `No tool named "${call.name}". Available tools: echo.` } };
  }
  const input = call.input as { text?: unknown } | null;
  if (typeof input?.text !== 'string') {
    return { ok: false, error: { code: 'TOOL_INPUT_INVALID', message: 'Invalid input for echo: input.text: must be string' } };
  }
  return { ok: true };
}

/** The call says what the policy answers: `input.perm` (`throw`: the policy crashes). */
export function policyFromInput(call: ToolCall): PermissionDecision {
  const perm = (call.input as { perm?: Perm }).perm ?? 'ask';
  switch (perm) {
    case 'allow':
      return { behavior: 'allow', decidedBy: 'test rule: allow' };
    case 'ask':
      return { behavior: 'ask', decidedBy: 'test rule: ask' };
    case 'deny':
      return { behavior: 'deny', decidedBy: 'test rule: deny', message: 'echo is denied here' };
    case 'plan':
      return { behavior: 'deny', decidedBy: 'mode: plan', continueWithFeedback: true, message: 'plan mode: describe, do not run' };
    case 'throw':
      throw new Error('the permission policy crashed');
    default: {
      const unreachable: never = perm;
      return unreachable;
    }
  }
}

/** The model's stand-in for a read-only tool: a call whose input says `safe: true` may run in a batch. */
export function concurrencySafe(call: ToolCall): boolean {
  return (call.input as { safe?: unknown } | null)?.safe === true;
}

/** The chart as the paths see it: the entry actions that carry rules and the hook matchers are replaced. */
export const testMachine = queryEngine.provide({
  actions: {
    validateCall: validateCallAction(validateEcho),
    decidePermission: decidePermissionAction(policyFromInput),
    planBatch: planBatchAction({
      validate: validateEcho,
      decide: policyFromInput,
      concurrencySafe,
      preToolUse: hookMatches,
      postToolUse: hookMatches,
    }),
    // The traversal explores every branch in one actor system: children go unnamed there (engine-setup.ts).
    startSubagent: startSubagentAction({ systemIds: false }),
    startBatchCalls: startBatchCallsAction({ systemIds: false }),
  },
  guards: {
    preToolUseDue: toolHookDue('PreToolUse', hookMatches),
    postToolUseDue: toolHookDue('PostToolUse', hookMatches),
    stopHooksDue: ({ context }, params: { response: ModelResponse }) =>
      context.hooks.events.includes('Stop') &&
      params.response.content.some((b) => b.type === 'text' && (b as { text: string }).text === HOOKED_ANSWER),
  },
});

export type EngineSnapshot = SnapshotFrom<typeof testMachine>;

/**
 * The events the model offers in a snapshot: the outcomes of the actor its state invokes, and the
 * root's. `drop` leaves variants out (the tests' PATHS_DROP), to show that the coverage check notices.
 */
export function eventsFor(snapshot: EngineSnapshot, start: Start, drop: ReadonlySet<string> = new Set()): PathEvent[] {
  if (snapshot.status !== 'active' || snapshot.context.turn >= start.turns) return [];
  return [...waitingOn(snapshot), ...rootEvents].filter((e) => !drop.has(e.variant));
}

/** The state node of a snapshot's active leaf. */
function activeNode(snapshot: EngineSnapshot): AnyStateNode {
  let node: AnyStateNode = testMachine.root;
  for (const name of statePath(snapshot.value).split('.')) node = node.states[name] as AnyStateNode;
  return node;
}

/**
 * The ids of the actors the active state waits for: the ones it invokes (read from the chart), and
 * the children it spawned that still run (a subagent; a batch's calls, by their status).
 */
export function invokedIn(snapshot: EngineSnapshot): string[] {
  return [...activeNode(snapshot).invoke.map((i) => i.id), ...spawnedIn(snapshot)];
}

/** The children the state spawned (read from its entry actions, by name) and that still run. */
function spawnedIn(snapshot: EngineSnapshot): string[] {
  const entry = activeNode(snapshot).entry.map((a: unknown) => (typeof a === 'string' ? a : (a as { type?: unknown }).type));
  if (entry.includes('startSubagent')) return ['subagent'];
  if (!entry.includes('startBatchCalls')) return [];
  return snapshot.context.batch.flatMap((b, i) => (b.status === 'running' ? [batchChildId(i)] : []));
}

/** The outcomes of what the snapshot waits for: the actors its state invokes, and its running children. */
function waitingOn(snapshot: EngineSnapshot): PathEvent[] {
  const { context } = snapshot;
  return invokedIn(snapshot).flatMap((id) => {
    if (id === 'subagent') return subagentEvents(id, lastChildPath(context));
    const index = /^batch-(\d+)$/.exec(id);
    if (!index) return outcomesOf(id, context.turn);
    const entry = context.batch[Number(index[1])]!;
    return isSubagentCall(entry.call) ? subagentEvents(id, entry.agent ?? '', `${id}-`) : batchToolEvents(Number(index[1]));
  });
}

/**
 * What decides the future of a snapshot. `messages` is left out: it is one array appended in place
 * and shared by every snapshot of a traversal, and no guard reads it.
 */
export function routingView(snapshot: EngineSnapshot) {
  const c = snapshot.context;
  return {
    value: snapshot.value,
    status: snapshot.status,
    turn: c.turn,
    toolCallCount: c.toolCallCount,
    queue: c.queue,
    batch: c.batch.map((b) => [b.call.id, b.status, b.outcome ? ('result' in b.outcome ? b.outcome.result.isError : 'failed') : null]),
    truncatedIds: c.truncatedIds,
    results: c.results.map((r) => ({ id: r.tool_use_id, isError: r.is_error === true })),
    current: c.current && {
      id: c.current.call.id,
      truncated: c.current.truncated,
      validation: c.current.validation,
      decision: c.current.decision,
      error: c.current.error?.code ?? null,
      preToolUse: c.current.preToolUse?.decision ?? (c.current.preToolUse ? 'none' : null),
      postToolUse: c.current.postToolUse?.decision ?? (c.current.postToolUse ? 'none' : null),
    },
    hooks: c.hooks.events,
    sessionStart: c.hooks.sessionStart,
    promptHook: c.prompt.hook?.decision ?? (c.prompt.hook ? 'none' : null),
    stopHookActive: c.hooks.stopActive,
    modelError: c.modelError?.code ?? null,
    stopReason: c.stopReason,
    // The token count itself differs by result text; what routes is whether compaction is due.
    budget: { near: nearWindow(c.budget, c.turn), compactedAtTurn: c.budget.compactedAtTurn },
  };
}

export function serializeState(snapshot: EngineSnapshot): string {
  const view: Snapshot<unknown> & { value: unknown; context: unknown } = {
    status: 'active',
    output: undefined,
    error: undefined,
    value: snapshot.value,
    context: routingView(snapshot),
  };
  return serializeSnapshot(view);
}
