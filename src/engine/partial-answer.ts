import { hasTag, TAG } from '../../machines/state-tags.js';
import type { AgentEvent } from './events.js';

/** Follows a task's events and keeps the text of the model turn still streaming, if any. */
export function partialAnswer(): { onEvent(event: AgentEvent): void; text(): string } {
  let text = '';
  return {
    onEvent(event) {
      if (event.type === 'text_delta') text += event.text;
      // A finished turn is in the messages already; a new call starts empty.
      else if (event.type === 'turn_end' || (event.type === 'state' && hasTag(event, TAG.model))) text = '';
    },
    text: () => text,
  };
}
