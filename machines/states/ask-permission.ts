import { TAG } from '../state-tags.js';
import { HOOK_ACTOR_IDS, NO_OPINION, type HookOutcome } from '../hooks.js';
import { errorMessage } from '../call-steps.js';
import { setupEngine } from '../engine-setup.js';
import { hookInput } from '../hook-steps.js';
import type { PermissionDecision } from '../types.js';
import { at, DONE } from './targets.js';

/**
 * Whether a valid call may run. The rules decide on entry; matching PreToolUse hooks may change
 * that (validate_tool enters `pre_tool_hooks` when they are due); the person is asked last, if the
 * decision is still "ask".
 */

const answered = ({ event }: { event: { output: HookOutcome } }) => ({ outcome: event.output });
const personAnswered = ({ event }: { event: { output: PermissionDecision } }) => ({ decision: event.output });
const promptFailed = ({ event }: { event: { error: unknown } }) => ({
  decision: { behavior: 'deny' as const, decidedBy: 'the permission prompt failed', message: errorMessage(event.error) },
});

export const askPermission = setupEngine.createStateConfig({
  entry: 'decidePermission',
  initial: 'deciding',
  states: {
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
