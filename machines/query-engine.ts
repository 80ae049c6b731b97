import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import {
  addUsage,
  initialContext,
  stopDecision,
  stopError,
  toolBudgetSpent,
  workingCall,
  type EngineContext,
  type EngineEvent,
  type EngineInput,
  type EngineOutput,
} from './engine-context.js';
import { decidePermissionAction, errorMessage, toolCalls, toolFailure, validateCallAction, withDecision } from './call-steps.js';
import { closingResults, errorResult } from './pending-results.js';
import { isRecoverable } from './recovery.js';
import {
  estimateTokens,
  isPromptTooLong,
  nearWindow,
  statedWindow,
  usageTokens,
  type CompactContextInput,
  type CompactionOutcome,
} from './context-budget.js';
import type { Message, ModelResponse, PermissionDecision, StopReason, ToolCall, ToolResult, Usage } from './types.js';
import { HOOK_ACTOR_IDS, NO_OPINION, type HookEventName, type HookOutcome, type HookRunInput } from './hooks.js';
import {
  hasHooks,
  hookInput,
  postToolUseAnswered,
  preToolUseAnswered,
  sessionStartAnswered,
  stopAnswered,
  toolHookDue,
  userPromptAnswered,
} from './hook-steps.js';

export { decidePermissionAction, validateCallAction } from './call-steps.js';
export { toolHookDue } from './hook-steps.js';

/**
 * The agent loop as one statechart. Everything is named; src/engine provides the real actors
 * (model, permission prompt, tools, clock) and the validation and permission rules via `.provide()`.
 * @example createActor(queryEngine.provide({ actors: { callModel, executeTool } }), { input })
 */

const notProvided = (what: string) => () => Promise.reject(new Error(`${what} is not provided`));

/** What the model actor gets: the conversation, the round, and the usage so far (for running totals). */
export interface CallModelInput {
  messages: Message[];
  turn: number;
  usage: Usage;
}

const setupEngine = setup({
  types: {
    context: {} as EngineContext,
    events: {} as EngineEvent,
    input: {} as EngineInput,
    output: {} as EngineOutput,
  },
  actors: {
    callModel: fromPromise<ModelResponse, CallModelInput>(notProvided('callModel')),
    askPermission: fromPromise<PermissionDecision, { call: ToolCall; decision: PermissionDecision }>(notProvided('askPermission')),
    executeTool: fromPromise<ToolResult, { call: ToolCall }>(notProvided('executeTool')),
    /** Asks the model for a summary of the conversation; the chart swaps it in (applyCompaction). */
    compactContext: fromPromise<CompactionOutcome, CompactContextInput>(notProvided('compactContext')),
    /** Runs the hooks configured for one event (all matching ones, in parallel) and merges their answers. */
    runHooks: fromPromise<HookOutcome, HookRunInput>(notProvided('runHooks')),
    /** Sends CLOCK.TICK with the injected clock's time when the deadline comes. */
    deadline: fromCallback<EventObject, { startedAt: number; timeoutMs: number }>(() => undefined),
  },
  guards: {
    // A state that spawned a child (a hook, the prompt, the summary) stays put until it answers.
    childRunning: ({ context }) => context.running !== null,
    // Hook guards: src provides the tool-name matchers; these defaults ask only whether any are configured.
    sessionStartDue: ({ context }) => !context.sessionStarted && hasHooks(context, 'SessionStart'),
    userPromptSubmitDue: ({ context }) => !context.promptAppended && context.promptHook === null && hasHooks(context, 'UserPromptSubmit'),
    promptBlocked: ({ context }) => context.promptHook?.decision === 'block',
    promptUnsent: ({ context }) => !context.promptAppended,
    preToolUseDue: toolHookDue('PreToolUse', () => true),
    postToolUseDue: toolHookDue('PostToolUse', () => true),
    stopHooksDue: ({ context }, _params: { response: ModelResponse }) => hasHooks(context, 'Stop'),
    hooksBlocked: (_, params: { outcome: HookOutcome }) => params.outcome.decision === 'block',
    maxTurnsReached: ({ context }) => context.turn >= context.maxTurns,
    maxToolCallsReached: ({ context }) => toolBudgetSpent(context),
    timedOut: ({ context, event }) => event.type === 'CLOCK.TICK' && event.now - context.startedAt >= context.timeoutMs,
    callInvalid: ({ context }) => context.current?.validation?.ok === false,
    permissionAllowed: ({ context }) => context.current?.decision?.behavior === 'allow',
    permissionDeniedWithFeedback: ({ context }) =>
      context.current?.decision?.behavior === 'deny' && context.current.decision.continueWithFeedback === true,
    permissionDenied: ({ context }) => context.current?.decision?.behavior === 'deny',
    queueHasMore: ({ context }) => context.results.length < context.queue.length,
    responseHasToolCalls: (_, params: { response: ModelResponse }) => toolCalls(params.response).length > 0,
    responsePaused: (_, params: { response: ModelResponse }) => params.response.stopReason === 'pause_turn',
    toolErrorRecoverable: (_, params: { error: unknown }) => isRecoverable(toolFailure(params.error).code),
    contextNearWindow: ({ context }) => nearWindow(context.budget, context.turn),
    contextFits: ({ context }) => !nearWindow(context.budget, context.turn),
    // One compaction per round: a prompt still too long after it is a model_error.
    promptTooLongOnce: ({ context }, params: { error: unknown }) =>
      isPromptTooLong(params.error) && context.budget.window !== null && context.budget.compactedAtTurn !== context.turn,
  },
  actions: {
    // An assign, not a plain action: XState runs plain actions of the initial state only at
    // start(), after the first microsteps were traced, so the prompt would reach the transcript late.
    appendUserInput: assign(({ context }) => {
      if (context.promptAppended) return {};
      const message: Message = {
        role: 'user',
        content: [
          { type: 'text', text: context.userInput },
          ...context.hookContext.map((text) => ({ type: 'text' as const, text: `Context from hooks:\n${text}` })),
        ],
      };
      context.messages.push(message);
      return { promptAppended: true, budget: { ...context.budget, tokens: context.budget.tokens + estimateTokens(message) } };
    }),
    recordResponse: assign(({ context }, params: { response: ModelResponse }) => {
      const { response } = params;
      context.messages.push({ role: 'assistant', content: response.content });
      return {
        turn: context.turn + 1,
        usage: addUsage(context.usage, response.usage),
        queue: toolCalls(response),
        truncatedIds: response.truncatedToolUseIds ?? [],
        results: [],
        current: null,
        lastStopReason: response.stopReason,
        // The API's own count: this prompt plus the answer, which the next prompt carries.
        budget: { ...context.budget, tokens: usageTokens(response.usage) },
      };
    }),
    validateCall: validateCallAction((call) => ({
      ok: false,
      error: { code: 'TOOL_NOT_FOUND', message: `No tool named "${call.name}". No tools are available.` },
    })),
    decidePermission: decidePermissionAction(() => ({ behavior: 'ask', decidedBy: 'default: no policy provided' })),
    // The children below are spawned, not invoked: a state that may wait for a hook first must not
    // start the prompt or the summary with it, and an invoked actor starts whenever its state stays.
    recordUserDecision: assign(({ context }, params: { decision: PermissionDecision }) => {
      // A prompt can only answer allow or deny; anything else would leave ask_permission with no way out.
      const decision: PermissionDecision =
        params.decision.behavior === 'ask'
          ? { behavior: 'deny', decidedBy: `the prompt gave no answer (${params.decision.decidedBy})` }
          : params.decision;
      return context.current ? { running: null, current: withDecision(context.current, decision) } : { running: null };
    }),
    startPrompt: assign(({ context, spawn }) => {
      const { call, decision } = workingCall(context);
      spawn('askPermission', {
        id: 'askPermission',
        input: { call, decision: decision ?? { behavior: 'ask', decidedBy: 'no decision yet' } },
      });
      return { running: 'askPermission' as const };
    }),
    startCompaction: assign(({ context, spawn }) => {
      const { budget } = context;
      const reason = budget.forced ? ('prompt_too_long' as const) : ('threshold' as const);
      const input = { messages: context.messages, turn: context.turn, window: budget.window ?? 0, reason, tokens: budget.tokens };
      spawn('compactContext', { id: 'compactContext', input });
      return { running: 'compactContext' as const };
    }),
    startHooks: assign(({ context, spawn }, params: { event: HookEventName }) => {
      const id = HOOK_ACTOR_IDS[params.event];
      spawn('runHooks', { id, input: hookInput(context, params.event) });
      return { running: id };
    }),
    recordSessionStart: assign(({ context }, params: { outcome: HookOutcome }) => sessionStartAnswered(context, params.outcome)),
    recordUserPromptSubmit: assign(({ context }, params: { outcome: HookOutcome }) => userPromptAnswered(context, params.outcome)),
    recordPreToolUse: assign(({ context }, params: { outcome: HookOutcome }) => preToolUseAnswered(context, params.outcome)),
    recordPostToolUse: assign(({ context }, params: { outcome: HookOutcome }) => postToolUseAnswered(context, params.outcome)),
    recordStopHooks: assign(({ context }, params: { outcome: HookOutcome }) => stopAnswered(context, params.outcome)),
    collectResult: assign(({ context }, params: { result: ToolResult }) => {
      const { call } = workingCall(context);
      return {
        toolCallCount: context.toolCallCount + 1,
        results: [
          ...context.results,
          { type: 'tool_result' as const, tool_use_id: call.id, content: params.result.content, is_error: params.result.isError },
        ],
      };
    }),
    recordToolFailure: assign(({ context }, params: { error: unknown }) => ({
      toolCallCount: context.toolCallCount + 1,
      current: { ...workingCall(context), error: toolFailure(params.error) },
    })),
    collectErrorResult: assign(({ context }) => ({ results: [...context.results, errorResult(workingCall(context))] })),
    appendToolResults: assign(({ context }) => {
      const message: Message = { role: 'user', content: context.results };
      context.messages.push(message);
      const budget =
        context.budget.window === null ? context.budget : { ...context.budget, tokens: context.budget.tokens + estimateTokens(message) };
      return { queue: [], truncatedIds: [], results: [], current: null, budget };
    }),
    // The API's answer names the real window; a configured one that was too big is corrected.
    requestCompaction: assign(({ context }, params: { error: unknown }) => {
      const stated = statedWindow(params.error);
      const window = stated !== null && context.budget.window !== null ? Math.min(stated, context.budget.window) : context.budget.window;
      return { budget: { ...context.budget, window, forced: true } };
    }),
    applyCompaction: assign(({ context }, params: { outcome: CompactionOutcome }) => {
      const { outcome } = params;
      const budget = { ...context.budget, compactedAtTurn: context.turn, forced: false };
      if (!outcome) return { budget, running: null };
      // In place, like every other change to the conversation: the array is shared with the session.
      context.messages.splice(0, outcome.removed, outcome.summary);
      return { budget: { ...budget, tokens: outcome.tokensAfter }, usage: addUsage(context.usage, outcome.usage), running: null };
    }),
    recordModelError: assign({
      modelError: (_, params: { error: unknown }) => ({ code: 'MODEL_ERROR' as const, message: errorMessage(params.error) }),
    }),
    stop: assign({ stopReason: (_, params: { reason: StopReason }) => params.reason }),
    closeOpenToolUses: assign(({ context }) => {
      if (context.queue.length === 0) return {};
      context.messages.push({ role: 'user', content: closingResults(context, context.stopReason ?? 'user_abort') });
      return { queue: [], truncatedIds: [], results: [] };
    }),
  },
});

/** Waits while a spawned child runs: a targetless, actionless transition leaves the state as it is. */
const waitForChild = { guard: 'childRunning' } as const;

/** After a call's result is collected: next call in the queue, or all results back to the model. */
const afterResult = [
  { guard: 'queueHasMore', target: 'validate_tool' },
  { target: 'call_model', actions: 'appendToolResults' },
] as const;

const outcomeOf = ({ event }: { event: { output: HookOutcome } }) => ({ outcome: event.output });
const noOpinion = () => ({ outcome: NO_OPINION });

export const queryEngine = setupEngine.createMachine({
  id: 'queryEngine',
  context: ({ input }) => initialContext(input),
  initial: 'build_context',
  invoke: {
    id: 'deadline',
    src: 'deadline',
    input: ({ context }) => ({ startedAt: context.startedAt, timeoutMs: context.timeoutMs }),
  },
  on: {
    ABORT: { target: '.done', actions: { type: 'stop', params: { reason: 'user_abort' } } },
    'CLOCK.TICK': { guard: 'timedOut', target: '.done', actions: { type: 'stop', params: { reason: 'timeout' } } },
  },
  states: {
    build_context: {
      // SessionStart (once per task), then UserPromptSubmit (before the prompt is sent), then the
      // prompt; usually passed straight through. Near the window it stays to compact.
      always: [
        waitForChild,
        { guard: 'sessionStartDue', actions: { type: 'startHooks', params: { event: 'SessionStart' } } },
        { guard: 'userPromptSubmitDue', actions: { type: 'startHooks', params: { event: 'UserPromptSubmit' } } },
        { guard: 'promptBlocked', target: 'done', actions: { type: 'stop', params: { reason: 'permission_denied' } } },
        { guard: 'promptUnsent', actions: 'appendUserInput' },
        { guard: 'contextFits', target: 'call_model' },
        { actions: 'startCompaction' },
      ],
      on: {
        'xstate.done.actor.sessionStartHooks': { actions: { type: 'recordSessionStart', params: outcomeOf } },
        'xstate.error.actor.sessionStartHooks': { actions: { type: 'recordSessionStart', params: noOpinion } },
        'xstate.done.actor.userPromptSubmitHooks': { actions: { type: 'recordUserPromptSubmit', params: outcomeOf } },
        'xstate.error.actor.userPromptSubmitHooks': { actions: { type: 'recordUserPromptSubmit', params: noOpinion } },
        'xstate.done.actor.compactContext': {
          target: 'call_model',
          actions: { type: 'applyCompaction', params: ({ event }) => ({ outcome: event.output }) },
        },
        // A failed summary leaves the conversation as it was; the request may still fit.
        'xstate.error.actor.compactContext': { target: 'call_model', actions: { type: 'applyCompaction', params: { outcome: null } } },
      },
    },
    call_model: {
      always: [
        waitForChild,
        { guard: 'maxTurnsReached', target: 'done', actions: { type: 'stop', params: { reason: 'max_turns' } } },
        { guard: 'contextNearWindow', target: 'build_context' },
      ],
      invoke: {
        id: 'callModel',
        src: 'callModel',
        input: ({ context }) => ({ messages: context.messages, turn: context.turn, usage: context.usage }),
        onDone: [
          {
            guard: { type: 'responseHasToolCalls', params: ({ event }) => ({ response: event.output }) },
            target: 'validate_tool',
            actions: { type: 'recordResponse', params: ({ event }) => ({ response: event.output }) },
          },
          {
            guard: { type: 'responsePaused', params: ({ event }) => ({ response: event.output }) },
            target: 'call_model',
            reenter: true,
            actions: { type: 'recordResponse', params: ({ event }) => ({ response: event.output }) },
          },
          {
            // A final answer: the Stop hooks may still send the model back to work.
            guard: { type: 'stopHooksDue', params: ({ event }) => ({ response: event.output }) },
            actions: [
              { type: 'recordResponse', params: ({ event }) => ({ response: event.output }) },
              { type: 'startHooks', params: { event: 'Stop' } },
            ],
          },
          {
            target: 'done',
            actions: [
              { type: 'recordResponse', params: ({ event }) => ({ response: event.output }) },
              { type: 'stop', params: { reason: 'final_answer' } },
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'promptTooLongOnce', params: ({ event }) => ({ error: event.error }) },
            target: 'build_context',
            actions: { type: 'requestCompaction', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'done',
            actions: [
              { type: 'recordModelError', params: ({ event }) => ({ error: event.error }) },
              { type: 'stop', params: { reason: 'model_error' } },
            ],
          },
        ],
      },
      on: {
        'xstate.done.actor.stopHooks': [
          {
            guard: { type: 'hooksBlocked', params: outcomeOf },
            target: 'call_model',
            reenter: true,
            actions: { type: 'recordStopHooks', params: outcomeOf },
          },
          {
            target: 'done',
            actions: [
              { type: 'recordStopHooks', params: outcomeOf },
              { type: 'stop', params: { reason: 'final_answer' } },
            ],
          },
        ],
        'xstate.error.actor.stopHooks': {
          target: 'done',
          actions: [
            { type: 'recordStopHooks', params: noOpinion },
            { type: 'stop', params: { reason: 'final_answer' } },
          ],
        },
      },
    },
    validate_tool: {
      // The next call becomes `current`; validateCall skips one the budget will not let run, so such a stop reports no error of the call's.
      entry: 'validateCall',
      always: [
        { guard: 'maxToolCallsReached', target: 'done', actions: { type: 'stop', params: { reason: 'max_tool_calls' } } },
        { guard: 'callInvalid', target: 'recover' },
        { target: 'ask_permission' },
      ],
    },
    ask_permission: {
      // The rules decide on entry; matching PreToolUse hooks may change that; the person is asked last, if still due.
      entry: 'decidePermission',
      always: [
        waitForChild,
        { guard: 'preToolUseDue', actions: { type: 'startHooks', params: { event: 'PreToolUse' } } },
        { guard: 'permissionAllowed', target: 'execute_tool' },
        { guard: 'permissionDeniedWithFeedback', target: 'recover' },
        { guard: 'permissionDenied', target: 'done', actions: { type: 'stop', params: { reason: 'permission_denied' } } },
        { actions: 'startPrompt' },
      ],
      on: {
        'xstate.done.actor.preToolUseHooks': { actions: { type: 'recordPreToolUse', params: outcomeOf } },
        'xstate.error.actor.preToolUseHooks': { actions: { type: 'recordPreToolUse', params: noOpinion } },
        // Targetless: the `always` list above routes the user's answer, so the routing lives once.
        'xstate.done.actor.askPermission': { actions: { type: 'recordUserDecision', params: ({ event }) => ({ decision: event.output }) } },
        'xstate.error.actor.askPermission': {
          actions: {
            type: 'recordUserDecision',
            params: ({ event }) => ({
              decision: { behavior: 'deny', decidedBy: 'the permission prompt failed', message: errorMessage(event.error) },
            }),
          },
        },
      },
    },
    execute_tool: {
      invoke: {
        id: 'executeTool',
        src: 'executeTool',
        input: ({ context }) => ({ call: workingCall(context).call }),
        onDone: {
          target: 'append_tool_result',
          actions: { type: 'collectResult', params: ({ event }) => ({ result: event.output }) },
        },
        onError: [
          {
            guard: { type: 'toolErrorRecoverable', params: ({ event }) => ({ error: event.error }) },
            target: 'recover',
            actions: { type: 'recordToolFailure', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'done',
            actions: [
              { type: 'recordToolFailure', params: ({ event }) => ({ error: event.error }) },
              { type: 'stop', params: { reason: 'tool_error' } },
            ],
          },
        ],
      },
    },
    append_tool_result: {
      // Matching PostToolUse hooks see the result first; what they say is appended to it.
      always: [
        waitForChild,
        { guard: 'postToolUseDue', actions: { type: 'startHooks', params: { event: 'PostToolUse' } } },
        ...afterResult,
      ],
      on: {
        'xstate.done.actor.postToolUseHooks': { actions: { type: 'recordPostToolUse', params: outcomeOf } },
        'xstate.error.actor.postToolUseHooks': { actions: { type: 'recordPostToolUse', params: noOpinion } },
      },
    },
    recover: {
      entry: 'collectErrorResult',
      always: afterResult,
    },
    done: {
      type: 'final',
      entry: 'closeOpenToolUses',
    },
  },
  output: ({ context }) => ({
    reason: context.stopReason ?? 'user_abort',
    turn: context.turn,
    toolCallCount: context.toolCallCount,
    usage: context.usage,
    error: stopError(context),
    decision: stopDecision(context),
    stoppedCall: context.current?.call ?? null,
    modelStopReason: context.lastStopReason,
  }),
});

export type QueryEngine = typeof queryEngine;
export const ENGINE_STATES = [
  'build_context',
  'call_model',
  'validate_tool',
  'ask_permission',
  'execute_tool',
  'append_tool_result',
  'recover',
  'done',
] as const;
export type EngineState = (typeof ENGINE_STATES)[number];
