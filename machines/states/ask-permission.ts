import { TAG } from '../state-tags.js';
import { HOOK_ACTOR_IDS, NO_OPINION, type HookOutcome } from '../hooks.js';
import { errorMessage } from '../call-steps.js';
import { setupEngine } from '../engine-setup.js';
import { hookInput } from '../hook-steps.js';
import type { PermissionDecision } from '../types.js';
import { at, DONE } from './targets.js';

/**
 * Whether a valid call may run. When other calls follow it, `planning_batch` first decides which
 * of them the rules let run together without asking (a batch). Otherwise the rules decide for the
 * one call on the way in (`toPermission`); matching PreToolUse hooks may change that; the person is
 * asked last, if the decision is still "ask".
 */

/**
 * Into ask_permission for one call: the rules decide on the way in (decidePermission), then the
 * PreToolUse hooks that match it run, if any. An action on these transitions rather than the
 * state's entry, so a planned batch (which the rules already allowed call by call) skips it.
 */
export const toPermission = [
  { guard: 'preToolUseDue', target: at('ask_permission.pre_tool_hooks'), actions: 'decidePermission' },
  { target: at('ask_permission.deciding'), actions: 'decidePermission' },
] as const;

const answered = ({ event }: { event: { output: HookOutcome } }) => ({ outcome: event.output });
const personAnswered = ({ event }: { event: { output: PermissionDecision } }) => ({ decision: event.output });
const promptFailed = ({ event }: { event: { error: unknown } }) => ({
  decision: { behavior: 'deny' as const, decidedBy: 'the permission prompt failed', message: errorMessage(event.error) },
});

export const askPermission = setupEngine.createStateConfig({
  initial: 'deciding',
  states: {
    /**
     * Routes a call that others follow: planBatch takes the run of calls from it that are valid,
     * read-only or subagents, allowed by the rules without asking and free of tool hooks; two or
     * more run together in `execute_tool.batch` (the state line carries each call's decision),
     * else the call goes on alone.
     */
    planning_batch: {
      entry: 'planBatch',
      always: [{ guard: 'batchPlanned', target: at('execute_tool.batch') }, ...toPermission],
    },
    /** Waits for the PreToolUse hooks that match the call. */
    pre_tool_hooks: {
      tags: [TAG.hooks],
      invoke: {
        id: HOOK_ACTOR_IDS.PreToolUse,
        src: 'runHooks',
        input: ({ context }) => hookInput(context, 'PreToolUse'),
        onDone: { target: 'deciding', actions: { type: 'recordPreToolUse', params: answered } },
        onError: { target: 'deciding', actions: { type: 'recordPreToolUse', params: { outcome: NO_OPINION } } },
      },
    },
    /** Routes on the decision so far: run, tell the model, stop, or ask the person. */
    deciding: {
      always: [
        { guard: 'ruleFailed', target: DONE, actions: { type: 'stop', params: { reason: 'tool_error' } } },
        { guard: 'subagentAllowed', target: at('execute_tool.subagent') },
        { guard: 'permissionAllowed', target: at('execute_tool') },
        { guard: 'permissionDeniedWithFeedback', target: at('recover') },
        { guard: 'permissionDenied', target: DONE, actions: { type: 'stop', params: { reason: 'permission_denied' } } },
        { target: 'asking_user' },
      ],
    },
    /** Waits for the person's answer (the terminal dialog, canUseTool, an editor); the deadline stands still meanwhile. */
    asking_user: {
      tags: [TAG.person],
      entry: 'pauseDeadline',
      exit: 'resumeDeadline',
      invoke: {
        id: 'askPermission',
        src: 'askPermission',
        input: ({ context }) => ({
          call: context.current!.call,
          decision: context.current!.decision ?? { behavior: 'ask', decidedBy: 'no decision yet' },
        }),
        onDone: { target: 'deciding', actions: { type: 'recordUserDecision', params: personAnswered } },
        onError: { target: 'deciding', actions: { type: 'recordUserDecision', params: promptFailed } },
      },
    },
  },
});
