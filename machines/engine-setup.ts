import { assign, enqueueActions, fromCallback, fromPromise, sendTo, setup, type ParameterizedObject } from 'xstate';
import {
  addUsage,
  workingCall,
  type AbortEvent,
  type EngineContext,
  type EngineEmitted,
  type EngineEvent,
  type EngineInput,
  type EngineOutput,
} from './engine-context.js';
import {
  decidePermissionAction,
  errorMessage,
  ruleFailed,
  toolCalls,
  toolFailure,
  validateCallAction,
  withDecision,
} from './call-steps.js';
import { closingResults, errorResult } from './pending-results.js';
import { batchChildId, batchCrashed, batchFinished, batchResults, planBatchAction } from './batch-steps.js';
import { startableBatchCalls, withBatchOutcome, type BatchChildEvent } from './batch-children.js';
import { isSubagentCall, lastChildPath, nextChildPath, withChildStarted, type SubagentInput } from './subagent-steps.js';
import { isRecoverable } from './recovery.js';
import { limitGuards, ownLimits } from './task-limits.js';
import type { StateTag } from './state-tags.js';
import {
  estimateTokens,
  isPromptTooLong,
  nearWindow,
  statedWindow,
  usageTokens,
  type CompactionReason,
  type CompactContextInput,
  type ContextBudget,
  type CompactionOutcome,
} from './context-budget.js';
import type { Message, ModelResponse, PermissionDecision, StopReason, ToolCall, ToolResult, ToolResultBlock, Usage } from './types.js';
import type { HookOutcome, HookRunInput } from './hooks.js';
import {
  hasHooks,
  postToolUseAnswered,
  preToolUseAnswered,
  sessionStartAnswered,
  stopHookMessage,
  toolHookDue,
  userPromptAnswered,
} from './hook-steps.js';

/**
 * The chart's vocabulary: its types, and every guard, action and actor by name with a default
 * implementation (src/engine provides the real actors and rules with `.provide()`).
 * query-engine.ts and states/ build the states from these names. Every change to the conversation
 * is emitted (`message`, `compacted`): src/engine keeps the conversation and the transcript from them.
 */

const notProvided = (what: string) => () => Promise.reject(new Error(`${what} is not provided`));

/** What the chart tells the deadline: the person's wait starts (the task's clock stands still), or ends. */
export type DeadlineEvent = { type: 'DEADLINE.PAUSE' } | { type: 'DEADLINE.RESUME' };

/** What the model actor gets: the round, and the usage so far (for running totals); the conversation is src's. */
export interface CallModelInput {
  turn: number;
  usage: Usage;
}

type ChangeCollect<P extends ParameterizedObject['params'] | undefined> = Parameters<
  typeof enqueueActions<EngineContext, EngineEvent, P, EngineEvent, never, never, never, never, EngineEmitted>
>[0];

/**
 * An action that changes the conversation: assigns the counters and emits what
 * changed (the transcript is written from what the chart emits). Named actors, actions and guards
 * are typed `never` here because it only assigns and emits; that also keeps TypeScript from
 * inferring the action map from itself.
 */
function change<P extends ParameterizedObject['params'] | undefined = undefined>(collect: ChangeCollect<P>) {
  return enqueueActions<EngineContext, EngineEvent, P, EngineEvent, never, never, never, never, EngineEmitted>(collect);
}

/** The actors the chart spawns as children (a batch's calls, a subagent) rather than invoking from a state config. */
const executeToolLogic = fromPromise<ToolResult, { call: ToolCall }>(notProvided('executeTool'));
/**
 * A subagent: the same chart as a child of this one (src provides it with the agent's tools, rules
 * and hooks), spawned with its agent path as `systemId`; its output is the child's EngineOutput.
 */
const subagentLogic = fromPromise<EngineOutput, SubagentInput>(notProvided('subagent'));
type Spawned =
  | { src: 'executeTool'; logic: typeof executeToolLogic; id: string | undefined }
  | { src: 'subagent'; logic: typeof subagentLogic; id: string | undefined };

/** An action that spawns or stops children (and assigns, sends); typed with the spawned actors only, like `change`. */
/** What a parent leaving a waiting state tells its running child: the deadline's tick that stops the parent is the child's timeout too. */
function abortFor(event: EngineEvent): AbortEvent {
  return event.type === 'CLOCK.TICK' ? { type: 'ABORT', reason: 'timeout' } : { type: 'ABORT' };
}

function spawning(
  collect: Parameters<
    typeof enqueueActions<EngineContext, EngineEvent, undefined, EngineEvent, Spawned, never, never, never, EngineEmitted>
  >[0],
) {
  return enqueueActions<EngineContext, EngineEvent, undefined, EngineEvent, Spawned, never, never, never, EngineEmitted>(collect);
}

/**
 * How children are named: by their agent path as `systemId` (a running task: the child is found in
 * the actor system by it), or without (xstate/graph's traversal explores every branch in one actor
 * system, where a `systemId` can be registered only once).
 */
export interface ChildNaming {
  systemIds: boolean;
}

/** The action that starts the current task call as a child chart. */
export function startSubagentAction({ systemIds }: ChildNaming) {
  return spawning(({ context, enqueue }) => {
    const path = nextChildPath(context);
    enqueue.assign(withChildStarted(context));
    enqueue.spawnChild('subagent', {
      id: 'subagent',
      ...(systemIds ? { systemId: path } : {}),
      input: { call: workingCall(context).call, path },
    });
  });
}

/** The action that starts the batch's waiting calls as children, as many as BATCH_LIMITS allow. */
export function startBatchCallsAction({ systemIds }: ChildNaming) {
  return spawning(({ context, enqueue }) => {
    const starting = startableBatchCalls(context.batch);
    if (starting.length === 0) return;
    let agent = context.agent;
    const batch = [...context.batch];
    for (const index of starting) {
      const entry = batch[index]!;
      if (isSubagentCall(entry.call)) {
        const path = nextChildPath({ ...context, agent });
        agent = withChildStarted({ ...context, agent }).agent;
        batch[index] = { ...entry, status: 'running', agent: path };
        enqueue.spawnChild('subagent', {
          id: batchChildId(index),
          ...(systemIds ? { systemId: path } : {}),
          input: { call: entry.call, path },
        });
      } else {
        batch[index] = { ...entry, status: 'running' };
        enqueue.spawnChild('executeTool', { id: batchChildId(index), input: { call: entry.call } });
      }
    }
    enqueue.assign({ batch, agent });
  });
}

export const setupEngine = setup({
  types: {
    context: {} as EngineContext,
    events: {} as EngineEvent,
    input: {} as EngineInput,
    output: {} as EngineOutput,
    emitted: {} as EngineEmitted,
    tags: {} as StateTag,
    /** The invoked actors by id: the chart's waits and the deadline. */
    children: {} as {
      sessionStartHooks: 'runHooks';
      userPromptSubmitHooks: 'runHooks';
      compactContext: 'compactContext';
      callModel: 'callModel';
      stopHooks: 'runHooks';
      preToolUseHooks: 'runHooks';
      askPermission: 'askPermission';
      postToolUseHooks: 'runHooks';
      deadline: 'deadline';
    },
  },
  actors: {
    callModel: fromPromise<ModelResponse, CallModelInput>(notProvided('callModel')),
    askPermission: fromPromise<PermissionDecision, { call: ToolCall; decision: PermissionDecision }>(notProvided('askPermission')),
    executeTool: executeToolLogic,
    subagent: subagentLogic,
    /** Asks the model for a summary of the conversation; the chart swaps it in (applyCompaction). */
    compactContext: fromPromise<CompactionOutcome, CompactContextInput>(notProvided('compactContext')),
    /** Runs the hooks configured for one event (all matching ones, in parallel) and merges their answers. */
    runHooks: fromPromise<HookOutcome, HookRunInput>(notProvided('runHooks')),
    /** Sends CLOCK.TICK with the injected clock's time when the deadline comes; told when the person's wait starts and ends. */
    deadline: fromCallback<DeadlineEvent, { startedAt: number; timeoutMs: number }>(() => undefined),
  },
  guards: {
    // Hook guards: src provides the tool-name matchers; these defaults ask only whether any are configured.
    sessionStartDue: ({ context }) => context.hooks.sessionStart !== null && hasHooks(context, 'SessionStart'),
    userPromptSubmitDue: ({ context }) => hasHooks(context, 'UserPromptSubmit'),
    preToolUseDue: toolHookDue('PreToolUse', () => true),
    postToolUseDue: toolHookDue('PostToolUse', () => true),
    stopHooksDue: ({ context }, _params: { response: ModelResponse }) => hasHooks(context, 'Stop'),
    hooksBlocked: (_, params: { outcome: HookOutcome }) => params.outcome.decision === 'block',
    stopHookAlreadyActive: ({ context }) => context.hooks.stopActive,
    // The task's limits; src gives every agent of a task one shared ledger (task-limits.ts).
    ...limitGuards(ownLimits),
    /** A parent stopped on the task's timeout and stops this child with it. */
    parentTimedOut: ({ event }) => event.type === 'ABORT' && event.reason === 'timeout',
    timedOut: ({ context, event }) => event.type === 'CLOCK.TICK' && event.now - context.deadline.startedAt >= context.deadline.timeoutMs,
    /** A rule src provided threw (a schema that does not compile, a policy that crashed): the task stops, named. */
    ruleFailed: ({ context }) => ruleFailed(context.current),
    callInvalid: ({ context }) => context.current?.validation?.ok === false,
    permissionAllowed: ({ context }) => context.current?.decision?.behavior === 'allow',
    permissionDeniedWithFeedback: ({ context }) =>
      context.current?.decision?.behavior === 'deny' && context.current.decision.continueWithFeedback === true,
    permissionDenied: ({ context }) => context.current?.decision?.behavior === 'deny',
    queueHasMore: ({ context }) => context.results.length < context.queue.length,
    /** Calls of the response follow the one being worked on: a batch may start here (ask_permission.planning_batch). */
    callsFollow: ({ context }) => context.queue.length - context.results.length >= 2,
    batchPlanned: ({ context }) => context.batch.length > 0,
    /** An allowed call that runs as a child chart (a `task` call). */
    subagentAllowed: ({ context }) => context.current?.decision?.behavior === 'allow' && isSubagentCall(context.current.call),
    batchFinished: ({ context }) => context.batch.length > 0 && batchFinished(context.batch),
    // A crash stops the task once every call of the batch is in (the others' results are kept).
    batchCrashed: ({ context }) => context.batch.length > 0 && batchFinished(context.batch) && batchCrashed(context.batch),
    responseHasToolCalls: (_, params: { response: ModelResponse }) => toolCalls(params.response).length > 0,
    responsePaused: (_, params: { response: ModelResponse }) => params.response.stopReason === 'pause_turn',
    toolErrorRecoverable: (_, params: { error: unknown }) => isRecoverable(toolFailure(params.error).code),
    contextNearWindow: ({ context }) => nearWindow(context.budget, context.turn),
    // One compaction per round: a prompt still too long after it is a model_error.
    promptTooLongOnce: ({ context }, params: { error: unknown }) =>
      isPromptTooLong(params.error) && context.budget.window !== null && context.budget.compactedAtTurn !== context.turn,
  },
  actions: {
    // The deadline counts the task's time, not the person's: the chart tells it by message.
    pauseDeadline: sendTo('deadline', { type: 'DEADLINE.PAUSE' } as const),
    resumeDeadline: sendTo('deadline', { type: 'DEADLINE.RESUME' } as const),
    appendUserInput: change(({ context, enqueue }) => {
      const message: Message = {
        role: 'user',
        content: [
          { type: 'text', text: context.userInput },
          ...context.prompt.context.map((text) => ({ type: 'text' as const, text: `Context from hooks:\n${text}` })),
        ],
      };
      enqueue.assign({ budget: { ...context.budget, tokens: context.budget.tokens + estimateTokens(message) } });
      enqueue.emit({ type: 'message', message });
    }),
    recordResponse: change<{ response: ModelResponse }>(({ context, enqueue }, params) => {
      const { response } = params;
      const message: Message = { role: 'assistant', content: response.content };
      enqueue.assign({
        turn: context.turn + 1,
        usage: addUsage(context.usage, response.usage),
        queue: toolCalls(response),
        truncatedIds: response.truncatedToolUseIds ?? [],
        results: [],
        current: null,
        lastResponse: { stopReason: response.stopReason, text: textOf(response) },
        // The API's own count: this prompt plus the answer, which the next prompt carries.
        budget: { ...context.budget, tokens: usageTokens(response.usage) },
      });
      enqueue.emit({ type: 'message', message });
    }),
    validateCall: validateCallAction((call) => ({
      ok: false,
      error: { code: 'TOOL_NOT_FOUND', message: `No tool named "${call.name}". No tools are available.` },
    })),
    decidePermission: decidePermissionAction(() => ({ behavior: 'ask', decidedBy: 'default: no policy provided' })),
    planBatch: planBatchAction(null),
    recordUserDecision: assign(({ context }, params: { decision: PermissionDecision }) => {
      // A prompt can only answer allow or deny; anything else would leave ask_permission with no way out.
      const decision: PermissionDecision =
        params.decision.behavior === 'ask'
          ? { behavior: 'deny', decidedBy: `the prompt gave no answer (${params.decision.decidedBy})` }
          : params.decision;
      return context.current ? { current: withDecision(context.current, decision) } : {};
    }),
    recordSessionStart: assign(({ context }, params: { outcome: HookOutcome }) => sessionStartAnswered(context, params.outcome)),
    recordUserPromptSubmit: assign(({ context }, params: { outcome: HookOutcome }) => userPromptAnswered(context, params.outcome)),
    recordPreToolUse: assign(({ context }, params: { outcome: HookOutcome }) => preToolUseAnswered(context, params.outcome)),
    recordPostToolUse: assign(({ context }, params: { outcome: HookOutcome }) => postToolUseAnswered(context, params.outcome)),
    /** A blocking Stop hook's reason goes to the model as a user message, and the loop goes on. */
    recordStopHooks: change<{ outcome: HookOutcome }>(({ context, enqueue }, params) => {
      if (params.outcome.decision !== 'block') return;
      const message = stopHookMessage(params.outcome);
      enqueue.assign({ hooks: { ...context.hooks, stopActive: true } });
      enqueue.emit({ type: 'message', message });
    }),
    collectResult: assign(({ context }, params: { result: ToolResult }) => {
      const { call } = workingCall(context);
      const { result } = params;
      const block = { type: 'tool_result' as const, tool_use_id: call.id, content: result.content, is_error: result.isError };
      return {
        toolCallCount: context.toolCallCount + 1,
        results: [...context.results, block],
        budget: withResult(context, block),
        ...(result.usage ? { usage: addUsage(context.usage, result.usage) } : {}),
      };
    }),
    /** Starts the task call being worked on as a child chart, named by its agent path (its `systemId`). */
    startSubagent: startSubagentAction({ systemIds: true }),
    /** Leaving the state stops the child: told to abort first (it closes its calls and says why it stopped), then stopped. */
    stopSubagent: spawning(({ context, event, enqueue, system }) => {
      const child = system.get(lastChildPath(context));
      if (child?.getSnapshot().status === 'active') enqueue.sendTo(child, abortFor(event));
      enqueue.stopChild('subagent');
    }),
    /** Starts the batch's waiting calls as children, as many as BATCH_LIMITS allow; a task call's child gets its agent path. */
    startBatchCalls: startBatchCallsAction({ systemIds: true }),
    /** A child of the batch is done (or failed): its outcome is kept with its call, and a waiting call may take its place. */
    recordBatchOutcome: assign(({ context, event }) => ({ batch: withBatchOutcome(context.batch, event as unknown as BatchChildEvent) })),
    /** Leaving the batch stops its children still running (a subagent is told to abort first). */
    stopBatch: spawning(({ context, event, enqueue, system }) => {
      context.batch.forEach((entry, index) => {
        if (entry.status !== 'running') return;
        const child = entry.agent ? system.get(entry.agent) : undefined;
        if (child?.getSnapshot().status === 'active') enqueue.sendTo(child, abortFor(event));
        enqueue.stopChild(batchChildId(index));
      });
    }),
    /** A batch's results go in at once, in the model's order; a crash becomes `current`'s error for the stop to report. */
    collectBatch: assign(({ context }) => {
      const { blocks, crash } = batchResults(context.batch);
      let { budget, usage } = context;
      for (const block of blocks) budget = withResult({ ...context, budget }, block);
      for (const { outcome } of context.batch)
        if (outcome && 'result' in outcome && outcome.result.usage) usage = addUsage(usage, outcome.result.usage);
      const current = crash && context.current ? { ...context.current, call: crash.call, error: crash.error } : context.current;
      return {
        toolCallCount: context.toolCallCount + blocks.length,
        results: [...context.results, ...blocks],
        budget,
        usage,
        current,
        batch: [],
      };
    }),
    recordToolFailure: assign(({ context }, params: { error: unknown }) => ({
      toolCallCount: context.toolCallCount + 1,
      current: { ...workingCall(context), error: toolFailure(params.error) },
    })),
    collectErrorResult: assign(({ context }) => {
      const block = errorResult(workingCall(context));
      return { results: [...context.results, block], budget: withResult(context, block) };
    }),
    // The results' tokens were counted as each was collected (withResult).
    appendToolResults: change(({ context, enqueue }) => {
      const message: Message = { role: 'user', content: context.results };
      enqueue.assign({ queue: [], truncatedIds: [], results: [], current: null, batch: [] });
      enqueue.emit({ type: 'message', message });
    }),
    // The API's answer names the real window; a configured one that was too big is corrected.
    correctWindow: assign(({ context }, params: { error: unknown }) => {
      const stated = statedWindow(params.error);
      const window = stated !== null && context.budget.window !== null ? Math.min(stated, context.budget.window) : context.budget.window;
      return { budget: { ...context.budget, window } };
    }),
    applyCompaction: change<{ outcome: CompactionOutcome }>(({ context, enqueue }, params) => {
      const { outcome } = params;
      const budget = { ...context.budget, compactedAtTurn: context.turn };
      if (!outcome) {
        enqueue.assign({ budget });
        return;
      }
      enqueue.assign({ budget: { ...budget, tokens: outcome.tokensAfter }, usage: addUsage(context.usage, outcome.usage) });
      enqueue.emit({ type: 'compacted', outcome });
    }),
    recordModelError: assign({
      modelError: (_, params: { error: unknown }) => ({ code: 'MODEL_ERROR' as const, message: errorMessage(params.error) }),
    }),
    stop: assign({ stopReason: (_, params: { reason: StopReason }) => params.reason }),
    closeOpenToolUses: change(({ context, enqueue }) => {
      if (context.queue.length === 0) return;
      const message: Message = { role: 'user', content: closingResults(context, context.stopReason ?? 'user_abort') };
      enqueue.assign({ queue: [], truncatedIds: [], results: [], batch: [] });
      enqueue.emit({ type: 'message', message });
    }),
  },
});

/** The text of an answer (a child's answer to its parent). */
function textOf(response: ModelResponse): string {
  let text = '';
  for (const block of response.content) if (block.type === 'text') text += (block as { text: string }).text;
  return text;
}

/**
 * The budget once a result is collected: its tokens count toward the next request from now on, so
 * the window guard after the last result sees them before the results are appended.
 */
function withResult(context: EngineContext, block: ToolResultBlock): ContextBudget {
  const { budget } = context;
  return budget.window === null ? budget : { ...budget, tokens: budget.tokens + estimateTokens(block) };
}

/** The input of the compactContext actor: why it runs (the 400 that sent it, or the threshold) and the numbers. */
export function compactionInput(context: EngineContext, reason: CompactionReason): CompactContextInput {
  const { budget } = context;
  return { turn: context.turn, window: budget.window ?? 0, reason, tokens: budget.tokens };
}
