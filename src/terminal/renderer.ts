import type { AgentEvent, QueryResult } from '../engine/events.js';

/** Turns the engine's events into what one output format writes. */
export interface Renderer {
  onEvent(event: AgentEvent): void;
  /** Called once with the task's result; returns when everything is written. */
  finish(result: QueryResult): void;
}

export interface Streams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}
