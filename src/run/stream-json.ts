import type { AgentEvent } from '../engine/events.js';

/**
 * One event as `--output-format stream-json` prints it and the library yields it: plain JSON,
 * nothing the engine still holds (the library parses the line back into a detached copy).
 */
export type StreamJsonEvent = AgentEvent;

/**
 * The line stream-json writes for an event (without the newline): the one mapping the CLI and
 * the library share, so both give the same shapes.
 * @example streamJsonLine({ type: 'text_delta', text: 'hi' }) // '{"type":"text_delta","text":"hi"}'
 */
export function streamJsonLine(event: AgentEvent): string {
  return JSON.stringify(event);
}

/**
 * The event the library yields: the stream-json line parsed back, so a caller that keeps or
 * changes it cannot reach into the engine's state, and fields stream-json leaves out are left out.
 * @example streamJsonEvent(event).type // 'text_delta'
 */
export function streamJsonEvent(event: AgentEvent): StreamJsonEvent {
  return JSON.parse(streamJsonLine(event)) as StreamJsonEvent;
}
