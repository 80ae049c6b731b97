import type { Actor } from 'xstate';
import type { EngineEmitted } from '../../machines/engine-context.js';
import type { QueryEngine } from '../../machines/query-engine.js';
import type { Message } from '../../machines/types.js';

/** An actor that emits the chart's conversation changes (a running query engine). */
type EmitsConversation = Pick<Actor<QueryEngine>, 'on'>;

/**
 * The conversation, kept outside the chart: the chart's context holds counters and ids only, and
 * emits each change; this applies them, in order, to `messages` (the caller's array: a resumed
 * conversation goes on in it). Every message is appended as the chart emits it, before any actor
 * the same step starts, so the model and the summary read the conversation as the chart left it.
 * `then` hears of each change after it is applied (the session's transcript).
 * @example const messages: Message[] = []; keepConversation(actor, messages);
 */
export function keepConversation(
  actor: EmitsConversation,
  messages: Message[],
  then: {
    message?: (message: Message) => void;
    compacted?: (event: Extract<EngineEmitted, { type: 'compacted' }>, messagesBefore: number) => void;
  } = {},
): void {
  actor.on('message', ({ message }) => {
    messages.push(message);
    then.message?.(message);
  });
  actor.on('compacted', (event) => {
    const messagesBefore = messages.length;
    messages.splice(0, event.outcome.removed, event.outcome.summary);
    then.compacted?.(event, messagesBefore);
  });
}
