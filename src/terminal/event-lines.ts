import type { AgentEvent } from '../engine/events.js';

/** The lines both UIs (the line renderer and the Ink UI) print for hook, retry and compaction events; each UI adds its own colour. */

/** One line for a hook run worth showing (a refusal, a block, an error, a timeout); null for one that just went on. */
export function hookLine(event: Extract<AgentEvent, { type: 'hook' }>): string | null {
  const quiet = event.outcome === 'ok' || event.outcome === 'allowed';
  // A hook that went through says nothing, unless it has a message for the user (systemMessage).
  if (quiet && !event.message) return null;
  const message = event.message ? `: ${event.message.split('\n')[0]}` : '';
  if (quiet) return `⚑ hook ${event.hook_event} ${event.command}${message}`;
  const exit = event.exit_code === null ? '' : ` (exit ${event.exit_code})`;
  return `⚑ hook ${event.hook_event} ${event.command}: ${event.outcome}${exit}${message}`;
}

/** One line for a compaction: what it saved, or why it did not. */
export function compactLine(event: Extract<AgentEvent, { type: 'compact' }>): string {
  const why = event.reason === 'prompt_too_long' ? 'the prompt was too long' : 'the context is near the window';
  if (event.tokens_after === null) return `⟳ compaction (${why}) ${event.error ? `failed: ${event.error}` : 'found nothing to cut'}`;
  return `⟳ compacted the conversation (${why}): ~${event.tokens_before} → ~${event.tokens_after} tokens`;
}

/** One line for a model request tried again after a transient error. */
export function retryLine(event: Extract<AgentEvent, { type: 'retry' }>): string {
  return `retrying the model request (attempt ${event.attempt}, ${event.message})`;
}
