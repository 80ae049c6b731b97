import { TAG } from '../state-tags.js';
import { HOOK_ACTOR_IDS, NO_OPINION, type HookOutcome } from '../hooks.js';
import { setupEngine } from '../engine-setup.js';
import { hookInput } from '../hook-steps.js';
import type { ModelResponse } from '../types.js';
import { at, DONE } from './targets.js';

/**
 * One model round: the limits are checked, the request waits for the model, and a final answer
 * waits for the Stop hooks, which may send the model back to work.
 */

const response = ({ event }: { event: { output: ModelResponse } }) => ({ response: event.output });
const failure = ({ event }: { event: { error: unknown } }) => ({ error: event.error });
const answered = ({ event }: { event: { output: HookOutcome } }) => ({ outcome: event.output });
const record = { type: 'recordResponse', params: response } as const;

export const callModel = setupEngine.createStateConfig({
  initial: 'checking_limits',
  states: {
    /** Before each request: the round budget, then room in the window. */
    checking_limits: {
      tags: [TAG.limits],
      always: [
        { guard: 'maxTurnsReached', target: DONE, actions: { type: 'stop', params: { reason: 'max_turns' } } },
        { guard: 'contextNearWindow', target: at('build_context.compacting') },
        { target: 'requesting' },
      ],
    },
    /** Waits for the model's response (streamed, retried by the client). */
    requesting: {
      tags: [TAG.model],
      invoke: {
        id: 'callModel',
        src: 'callModel',
        input: ({ context }) => ({ turn: context.turn, usage: context.usage }),
        onDone: [
          { guard: { type: 'responseHasToolCalls', params: response }, target: at('validate_tool'), actions: record },
          // The server paused a long turn: send the conversation back as it is to let it continue.
          { guard: { type: 'responsePaused', params: response }, target: 'checking_limits', actions: record },
          // A final answer: the Stop hooks may still send the model back to work.
          { guard: { type: 'stopHooksDue', params: response }, target: 'stop_hooks', actions: record },
          { target: DONE, actions: [record, { type: 'stop', params: { reason: 'final_answer' } }] },
        ],
        onError: [
          {
            guard: { type: 'promptTooLongOnce', params: failure },
            target: at('build_context.compacting'),
            actions: { type: 'correctWindow', params: failure },
          },
          {
            target: DONE,
            actions: [
              { type: 'recordModelError', params: failure },
              { type: 'stop', params: { reason: 'model_error' } },
            ],
          },
        ],
      },
    },
    /** Waits for the Stop hooks on a final answer. */
    stop_hooks: {
      tags: [TAG.hooks],
      invoke: {
        id: HOOK_ACTOR_IDS.Stop,
        src: 'runHooks',
        input: ({ context }) => hookInput(context, 'Stop'),
        onDone: [
          // Sent back once already (stop_hook_active): a second block does not hold the task, as in Claude Code.
          {
            guard: 'stopHookAlreadyActive',
            target: DONE,
            actions: { type: 'stop', params: { reason: 'final_answer' } },
          },
          {
            guard: { type: 'hooksBlocked', params: answered },
            target: 'checking_limits',
            actions: { type: 'recordStopHooks', params: answered },
          },
          {
            target: DONE,
            actions: [
              { type: 'recordStopHooks', params: answered },
              { type: 'stop', params: { reason: 'final_answer' } },
            ],
          },
        ],
        onError: {
          target: DONE,
          actions: [
            { type: 'recordStopHooks', params: { outcome: NO_OPINION } },
            { type: 'stop', params: { reason: 'final_answer' } },
          ],
        },
      },
    },
  },
});
