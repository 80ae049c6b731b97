import { TAG } from '../state-tags.js';
import { HOOK_ACTOR_IDS, NO_OPINION, type HookOutcome } from '../hooks.js';
import { compactionInput, setupEngine } from '../engine-setup.js';
import { hookInput } from '../hook-steps.js';
import type { CompactionOutcome } from '../context-budget.js';
import { at, DONE } from './targets.js';

/**
 * Before a model request: the session's SessionStart hooks (the run's first task), the prompt's
 * UserPromptSubmit hooks, the prompt itself, and a compaction when the conversation nears the
 * window. Each hook run and the summary request is a state of its own, invoked on entry.
 */

const answered = ({ event }: { event: { output: HookOutcome } }) => ({ outcome: event.output });
const noOpinion = () => ({ outcome: NO_OPINION });

/** After the SessionStart hooks (recorded by `record`), or at once: the prompt's own hooks, else the prompt goes in. */
function toPrompt<A>(record: A[]) {
  return [
    { guard: 'userPromptSubmitDue', target: 'prompt_hooks', actions: record },
    { target: 'measuring', actions: [...record, 'appendUserInput'] },
  ] as const;
}
const sessionStarted = { type: 'recordSessionStart', params: answered } as const;
const sessionStartFailed = { type: 'recordSessionStart', params: noOpinion } as const;

export const buildContext = setupEngine.createStateConfig({
  initial: 'starting',
  states: {
    /** Routes the task's start: which hooks are due, else the prompt goes in. */
    starting: {
      always: [{ guard: 'sessionStartDue', target: 'session_start_hooks' }, ...toPrompt([])],
    },
    session_start_hooks: {
      tags: [TAG.hooks],
      invoke: {
        id: HOOK_ACTOR_IDS.SessionStart,
        src: 'runHooks',
        input: ({ context }) => hookInput(context, 'SessionStart'),
        onDone: toPrompt([sessionStarted]),
        onError: toPrompt([sessionStartFailed]),
      },
    },
    prompt_hooks: {
      tags: [TAG.hooks],
      invoke: {
        id: HOOK_ACTOR_IDS.UserPromptSubmit,
        src: 'runHooks',
        input: ({ context }) => hookInput(context, 'UserPromptSubmit'),
        onDone: [
          {
            guard: { type: 'hooksBlocked', params: answered },
            target: DONE,
            actions: [
              { type: 'recordUserPromptSubmit', params: answered },
              { type: 'stop', params: { reason: 'permission_denied' } },
            ],
          },
          { target: 'measuring', actions: [{ type: 'recordUserPromptSubmit', params: answered }, 'appendUserInput'] },
        ],
        // A hook runner that failed as a whole has no opinion: a broken hook never blocks.
        onError: { target: 'measuring', actions: [{ type: 'recordUserPromptSubmit', params: noOpinion }, 'appendUserInput'] },
      },
    },
    /** The prompt is in: compact first if the request would not fit. */
    measuring: {
      always: [{ guard: 'contextNearWindow', target: 'compacting' }, { target: at('call_model') }],
    },
    /** Waits for the model's summary of the conversation (threshold, or the API's "prompt is too long"). */
    compacting: {
      tags: [TAG.compaction],
      invoke: {
        id: 'compactContext',
        src: 'compactContext',
        // Entered from a failed request (the 400) or by the threshold; the input says which.
        input: ({ context, event }) =>
          compactionInput(context, (event as { type: string }).type === 'xstate.error.actor.callModel' ? 'prompt_too_long' : 'threshold'),
        onDone: {
          target: at('call_model'),
          actions: {
            type: 'applyCompaction',
            params: ({ event }: { event: { output: CompactionOutcome } }) => ({ outcome: event.output }),
          },
        },
        // A failed summary leaves the conversation as it was; the request may still fit.
        onError: { target: at('call_model'), actions: { type: 'applyCompaction', params: { outcome: null } } },
      },
    },
  },
});
