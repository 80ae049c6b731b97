import type { Message } from '../../machines/types.js';
import type { AgentEvent, QueryResult } from '../engine/events.js';
import { query } from '../engine/query.js';
import type { PermissionPolicy } from '../permissions/types.js';
import { sessionDir } from '../sessions/layout.js';
import { openSessionWriter } from '../sessions/session-writer.js';
import { exitCodeFor } from './exit-codes.js';
import { jsonRenderer, streamJsonRenderer } from './output/json.js';
import type { Renderer, Streams } from './output/renderer.js';
import { textRenderer } from './output/text.js';
import type { RunConfig } from './run-config.js';

export function rendererFor(config: RunConfig, streams: Streams): Renderer {
  switch (config.format) {
    case 'json':
      return jsonRenderer(streams);
    case 'stream-json':
      return streamJsonRenderer(streams);
    case 'text':
      return textRenderer(streams, config);
    default: {
      const unreachable: never = config.format;
      return unreachable;
    }
  }
}

export interface TaskRun {
  prompt: string;
  sessionId: string;
  messages: Message[];
  permissions: PermissionPolicy;
  signal: AbortSignal;
  /** Sees every event as it happens (the live inspector). */
  observe?: (event: AgentEvent) => void;
}

/** Runs one task through the engine, rendering as it goes; resolves with the result. */
export async function runOneTask(config: RunConfig, run: TaskRun, renderer: Renderer): Promise<QueryResult> {
  const events = query(run.prompt, {
    model: config.model,
    tools: config.tools,
    permissions: run.permissions,
    workspace: config.workspace,
    maxTurns: config.maxTurns,
    maxToolCalls: config.maxToolCalls,
    timeoutMs: config.timeoutMs,
    signal: run.signal,
    sessionId: run.sessionId,
    session: openSessionWriter(sessionDir(config.home, run.sessionId), run.sessionId),
    messages: run.messages,
    ...(run.observe ? { observe: run.observe } : {}),
  });
  for await (const event of events) {
    if (event.type === 'result') {
      renderer.finish(event);
      return event;
    }
    renderer.onEvent(event);
  }
  throw new Error('the engine ended without a result');
}

export function exitCodeOf(result: QueryResult): number {
  return exitCodeFor(result.reason);
}
