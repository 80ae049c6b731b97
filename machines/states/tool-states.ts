import { TAG } from '../state-tags.js';
import { HOOK_ACTOR_IDS, NO_OPINION, type HookOutcome } from '../hooks.js';
import { workingCall, type EngineContext, type EngineOutput } from '../engine-context.js';
import { subagentResult } from '../subagent-steps.js';
import { setupEngine } from '../engine-setup.js';
import { hookInput } from '../hook-steps.js';
import type { ToolResult } from '../types.js';
import { toPermission } from './ask-permission.js';
import { at, DONE } from './targets.js';

/** The states one tool call passes through besides ask_permission: checked, run, its result collected (or the error). */

const answered = ({ event }: { event: { output: HookOutcome } }) => ({ outcome: event.output });
const failure = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/**
 * After a call's result is collected: the next call in the queue, or all results back to the model.
 * The round's limits are checked here rather than in call_model.checking_limits: this is the path
 * every tool round takes, and a routing state less is a microstep less per round. The results'
 * tokens are counted as they are collected, so the window guard already sees them.
 */
const afterResult = [
  { guard: 'queueHasMore', target: at('validate_tool') },
  { guard: 'maxTurnsReached', target: DONE, actions: ['appendToolResults', { type: 'stop', params: { reason: 'max_turns' } }] },
  { guard: 'contextNearWindow', target: at('build_context.compacting'), actions: 'appendToolResults' },
  { target: at('call_model.requesting'), actions: 'appendToolResults' },
] as const;

export const validateTool = setupEngine.createStateConfig({
  tags: [TAG.call],
  // The next call becomes `current`; validateCall skips one the budget will not let run, so such a stop reports no error of the call's.
  entry: 'validateCall',
  always: [
    { guard: 'maxToolCallsReached', target: DONE, actions: { type: 'stop', params: { reason: 'max_tool_calls' } } },
    { guard: 'ruleFailed', target: DONE, actions: { type: 'stop', params: { reason: 'tool_error' } } },
    { guard: 'callInvalid', target: at('recover') },
    // Other calls follow: whether some run together is decided in a state of its own (batch-steps.ts).
    { guard: 'callsFollow', target: at('ask_permission.planning_batch') },
    ...toPermission,
  ],
});

const toolResult = ({ event }: { event: { output: ToolResult } }) => ({ result: event.output });
const childAnswer = ({ context, event }: { context: EngineContext; event: { output: EngineOutput } }) => ({
  result: subagentResult(workingCall(context).call, event.output),
});

/** Where a result goes once collected: the PostToolUse hooks that match the call, or straight on. */
const collectedVia = <P>(params: P) =>
  [
    { guard: 'postToolUseDue', target: at('append_tool_result.post_tool_hooks'), actions: { type: 'collectResult', params } },
    { target: at('append_tool_result.collected'), actions: { type: 'collectResult', params } },
  ] as const;

/** A call that failed: back to the model when it can fix it (recovery.ts), else the task stops. */
const failedVia = [
  {
    guard: { type: 'toolErrorRecoverable', params: failure },
    target: at('recover'),
    actions: { type: 'recordToolFailure', params: failure },
  },
  {
    target: DONE,
    actions: [
      { type: 'recordToolFailure', params: failure },
      { type: 'stop', params: { reason: 'tool_error' } },
    ],
  },
] as const;

export const executeTool = setupEngine.createStateConfig({
  tags: [TAG.tool],
  initial: 'running',
  states: {
    /** Waits for one tool call. */
    running: {
      invoke: {
        id: 'executeTool',
        src: 'executeTool',
        input: ({ context }) => ({ call: workingCall(context).call }),
        onDone: collectedVia(toolResult),
        onError: failedVia,
      },
    },
    /**
     * Waits for a subagent: the task call runs as a child chart in this actor system, named by its
     * agent path (`systemId`), its answer its done event's output; leaving the state stops it.
     */
    subagent: {
      entry: 'startSubagent',
      exit: 'stopSubagent',
      on: {
        'xstate.done.actor.subagent': collectedVia(childAnswer),
        'xstate.error.actor.subagent': failedVia,
      },
    },
    /**
     * Waits for a batch: calls the rules allowed that may run together (read-only tools, subagents),
     * each a child with its own status (batch-children.ts), their results appended in the model's
     * order once all are done; leaving the state stops the children still running.
     */
    batch: {
      entry: 'startBatchCalls',
      exit: 'stopBatch',
      on: {
        'xstate.done.actor.*': { actions: ['recordBatchOutcome', 'startBatchCalls'] },
        'xstate.error.actor.*': { actions: ['recordBatchOutcome', 'startBatchCalls'] },
      },
      always: [
        { guard: 'batchCrashed', target: DONE, actions: ['collectBatch', { type: 'stop', params: { reason: 'tool_error' } }] },
        { guard: 'batchFinished', target: at('append_tool_result.collected'), actions: 'collectBatch' },
      ],
    },
  },
});

export const appendToolResult = setupEngine.createStateConfig({
  initial: 'collected',
  states: {
    /** Waits for the PostToolUse hooks that match the call; what they say is appended to its result. */
    post_tool_hooks: {
      tags: [TAG.hooks],
      invoke: {
        id: HOOK_ACTOR_IDS.PostToolUse,
        src: 'runHooks',
        input: ({ context }) => hookInput(context, 'PostToolUse'),
        onDone: { target: 'collected', actions: { type: 'recordPostToolUse', params: answered } },
        onError: { target: 'collected', actions: { type: 'recordPostToolUse', params: { outcome: NO_OPINION } } },
      },
    },
    /** The result is in: the next call, or every result back to the model. */
    collected: { always: afterResult },
  },
});

/** The call's error becomes its result; from there on it is routed like any other result. */
export const recover = setupEngine.createStateConfig({
  tags: [TAG.callFailed],
  entry: 'collectErrorResult',
  always: { target: at('append_tool_result.collected') },
});
