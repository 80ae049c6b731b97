import { initialContext, stopDecision, stopError, workingCall } from './engine-context.js';
import { errorMessage } from './call-steps.js';
import { NO_OPINION, type HookOutcome } from './hooks.js';
import { setupEngine } from './engine-setup.js';

export { decidePermissionAction, validateCallAction } from './call-steps.js';
export { toolHookDue } from './hook-steps.js';
export type { CallModelInput } from './engine-setup.js';

/**
 * The agent loop as one statechart. Everything is named; src/engine provides the real actors
 * (model, permission prompt, tools, clock) and the validation and permission rules via `.provide()`.
 * @example createActor(queryEngine.provide({ actors: { callModel, executeTool } }), { input })
 */

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
    input: ({ context }) => context.deadline,
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
