import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import {
  addUsage,
  currentCall,
  initialContext,
  type EngineContext,
  type EngineEvent,
  type EngineInput,
  type EngineOutput,
} from './engine-context.js';
import { decidePermissionAction, errorMessage, toolCalls, toolFailure, validateCallAction } from './call-steps.js';
import { closingResults, errorResult } from './pending-results.js';
import { isRecoverable } from './recovery.js';
import type { EngineError, Message, ModelResponse, PermissionDecision, StopReason, ToolCall, ToolResult } from './types.js';

export { decidePermissionAction, validateCallAction } from './call-steps.js';

/**
 * The agent loop as one statechart. Everything is named; src/engine provides the real actors
 * (model, permission prompt, tools, clock) and the validation and permission rules via `.provide()`.
 * @example createActor(queryEngine.provide({ actors: { callModel, executeTool } }), { input })
 */

const notProvided = (what: string) => () => Promise.reject(new Error(`${what} is not provided`));

const setupEngine = setup({
  types: {
    context: {} as EngineContext,
    events: {} as EngineEvent,
    input: {} as EngineInput,
    output: {} as EngineOutput,
  },
  actors: {
    callModel: fromPromise<ModelResponse, { messages: Message[]; turn: number }>(notProvided('callModel')),
    askPermission: fromPromise<PermissionDecision, { call: ToolCall; decision: PermissionDecision }>(
      notProvided('askPermission'),
    ),
    executeTool: fromPromise<ToolResult, { call: ToolCall }>(notProvided('executeTool')),
    /** Sends CLOCK.TICK with the injected clock's time when the deadline comes. */
    deadline: fromCallback<EventObject, { startedAt: number; timeoutMs: number }>(() => undefined),
  },
  guards: {
    maxTurnsReached: ({ context }) => context.turn >= context.maxTurns,
    maxToolCallsReached: ({ context }) => context.toolCallCount >= context.maxToolCalls,
    timedOut: ({ context, event }) => event.type === 'CLOCK.TICK' && event.now - context.startedAt >= context.timeoutMs,
    callInvalid: ({ context }) => context.validation?.ok === false,
    permissionAllowed: ({ context }) => context.decision?.behavior === 'allow',
    permissionDeniedWithFeedback: ({ context }) =>
      context.decision?.behavior === 'deny' && context.decision.continueWithFeedback === true,
    permissionDenied: ({ context }) => context.decision?.behavior === 'deny',
    queueHasMore: ({ context }) => context.results.length < context.queue.length,
    responseHasToolCalls: (_, params: { response: ModelResponse }) => toolCalls(params.response).length > 0,
    responsePaused: (_, params: { response: ModelResponse }) => params.response.stopReason === 'pause_turn',
    toolErrorRecoverable: (_, params: { error: unknown }) => isRecoverable(toolFailure(params.error).code),
  },
  actions: {
    // An assign, not a plain action: XState runs plain actions of the initial state only at
    // start(), after the first microsteps were traced, so the prompt would reach the transcript late.
    appendUserInput: assign(({ context }) => {
      context.messages.push({ role: 'user', content: [{ type: 'text', text: context.userInput }] });
      return {};
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
        validation: null,
        decision: null,
        lastError: null,
        lastStopReason: response.stopReason,
      };
    }),
    validateCall: validateCallAction((call) => ({
      ok: false,
      error: { code: 'TOOL_NOT_FOUND', message: `No tool named "${call.name}". No tools are available.` },
    })),
    decidePermission: decidePermissionAction(() => ({ behavior: 'ask', decidedBy: 'default: no policy provided' })),
    recordUserDecision: assign({
      // A prompt can only answer allow or deny; anything else would leave ask_permission with no way out.
      decision: (_, params: { decision: PermissionDecision }): PermissionDecision =>
        params.decision.behavior === 'ask'
          ? { behavior: 'deny', decidedBy: `the prompt gave no answer (${params.decision.decidedBy})` }
          : params.decision,
      lastError: (_, params: { decision: PermissionDecision }) =>
        params.decision.behavior === 'deny'
          ? ({ code: 'PERMISSION_DENIED', message: params.decision.message ?? 'The user refused this tool call.' } as EngineError)
          : null,
    }),
    collectResult: assign(({ context }, params: { result: ToolResult }) => ({
      toolCallCount: context.toolCallCount + 1,
      results: [
        ...context.results,
        {
          type: 'tool_result' as const,
          tool_use_id: currentCall(context)?.id ?? 'unknown',
          content: params.result.content,
          is_error: params.result.isError,
        },
      ],
    })),
    recordToolFailure: assign(({ context }, params: { error: unknown }) => ({
      toolCallCount: context.toolCallCount + 1,
      lastError: toolFailure(params.error),
    })),
    collectErrorResult: assign(({ context }) => ({ results: [...context.results, errorResult(context)] })),
    clearCallState: assign({ validation: null, decision: null, lastError: null }),
    appendToolResults: assign(({ context }) => {
      context.messages.push({ role: 'user', content: context.results });
      return { queue: [], truncatedIds: [], results: [], validation: null, decision: null, lastError: null };
    }),
    recordModelError: assign({
      lastError: (_, params: { error: unknown }): EngineError => ({ code: 'MODEL_ERROR', message: errorMessage(params.error) }),
    }),
    stop: assign({ stopReason: (_, params: { reason: StopReason }) => params.reason }),
    closeOpenToolUses: assign(({ context }) => {
      if (context.queue.length === 0) return {};
      context.messages.push({ role: 'user', content: closingResults(context, context.stopReason ?? 'user_abort') });
      return { queue: [], truncatedIds: [], results: [], stoppedCall: currentCall(context) ?? null };
    }),
  },
});

/** After a call's result is collected: next call in the queue, or all results back to the model. */
const afterResult = [
  { guard: 'queueHasMore', target: 'validate_tool', actions: 'clearCallState' },
  { target: 'call_model', actions: 'appendToolResults' },
] as const;

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
      entry: 'appendUserInput',
      always: 'call_model',
    },
    call_model: {
      always: { guard: 'maxTurnsReached', target: 'done', actions: { type: 'stop', params: { reason: 'max_turns' } } },
      invoke: {
        id: 'callModel',
        src: 'callModel',
        input: ({ context }) => ({ messages: context.messages, turn: context.turn }),
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
            target: 'done',
            actions: [
              { type: 'recordResponse', params: ({ event }) => ({ response: event.output }) },
              { type: 'stop', params: { reason: 'final_answer' } },
            ],
          },
        ],
        onError: {
          target: 'done',
          actions: [
            { type: 'recordModelError', params: ({ event }) => ({ error: event.error }) },
            { type: 'stop', params: { reason: 'model_error' } },
          ],
        },
      },
    },
    validate_tool: {
      entry: 'validateCall',
      always: [
        { guard: 'maxToolCallsReached', target: 'done', actions: { type: 'stop', params: { reason: 'max_tool_calls' } } },
        { guard: 'callInvalid', target: 'recover' },
        { target: 'ask_permission' },
      ],
    },
    ask_permission: {
      entry: 'decidePermission',
      always: [
        { guard: 'permissionAllowed', target: 'execute_tool' },
        { guard: 'permissionDeniedWithFeedback', target: 'recover' },
        { guard: 'permissionDenied', target: 'done', actions: { type: 'stop', params: { reason: 'permission_denied' } } },
      ],
      invoke: {
        id: 'askPermission',
        src: 'askPermission',
        input: ({ context }) => ({ call: currentCall(context)!, decision: context.decision! }),
        // Targetless: the `always` list above routes the user's answer, so the routing lives once.
        onDone: { actions: { type: 'recordUserDecision', params: ({ event }) => ({ decision: event.output }) } },
        onError: {
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
        input: ({ context }) => ({ call: currentCall(context)! }),
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
      always: afterResult,
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
    error: context.lastError,
    decision: context.decision,
    stoppedCall: context.stoppedCall,
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
