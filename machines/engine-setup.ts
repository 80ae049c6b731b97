import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import {
  addUsage,
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
import { HOOK_ACTOR_IDS, type HookEventName, type HookOutcome, type HookRunInput } from './hooks.js';
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

/**
 * The chart's vocabulary: its types, and every guard, action and actor by name with a default
 * implementation (src/engine provides the real actors and rules with `.provide()`).
 * query-engine.ts builds the states from these names.
 */

const notProvided = (what: string) => () => Promise.reject(new Error(`${what} is not provided`));

/** What the model actor gets: the conversation, the round, and the usage so far (for running totals). */
export interface CallModelInput {
  messages: Message[];
  turn: number;
  usage: Usage;
}

export const setupEngine = setup({
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
    sessionStartDue: ({ context }) => !context.prompt.sessionStarted && hasHooks(context, 'SessionStart'),
    userPromptSubmitDue: ({ context }) => !context.prompt.appended && context.prompt.hook === null && hasHooks(context, 'UserPromptSubmit'),
    promptBlocked: ({ context }) => context.prompt.hook?.decision === 'block',
    promptUnsent: ({ context }) => !context.prompt.appended,
    preToolUseDue: toolHookDue('PreToolUse', () => true),
    postToolUseDue: toolHookDue('PostToolUse', () => true),
    stopHooksDue: ({ context }, _params: { response: ModelResponse }) => hasHooks(context, 'Stop'),
    hooksBlocked: (_, params: { outcome: HookOutcome }) => params.outcome.decision === 'block',
    maxTurnsReached: ({ context }) => context.turn >= context.maxTurns,
    maxToolCallsReached: ({ context }) => toolBudgetSpent(context),
    timedOut: ({ context, event }) => event.type === 'CLOCK.TICK' && event.now - context.deadline.startedAt >= context.deadline.timeoutMs,
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
      if (context.prompt.appended) return {};
      const message: Message = {
        role: 'user',
        content: [
          { type: 'text', text: context.userInput },
          ...context.prompt.context.map((text) => ({ type: 'text' as const, text: `Context from hooks:\n${text}` })),
        ],
      };
      context.messages.push(message);
      return {
        prompt: { ...context.prompt, appended: true },
        budget: { ...context.budget, tokens: context.budget.tokens + estimateTokens(message) },
      };
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
    recordUserDecision: assign(({ context }, params: { decision: PermissionDecision }) => {
      // A prompt can only answer allow or deny; anything else would leave ask_permission with no way out.
      const decision: PermissionDecision =
        params.decision.behavior === 'ask'
          ? { behavior: 'deny', decidedBy: `the prompt gave no answer (${params.decision.decidedBy})` }
          : params.decision;
      return context.current ? { running: null, current: withDecision(context.current, decision) } : { running: null };
    }),
    // The children below are spawned, not invoked: a state that may wait for a hook first must not
    // start the prompt or the summary with it, and an invoked actor starts whenever its state stays.
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
