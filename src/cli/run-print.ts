import path from 'node:path';
import type { Message } from '../../machines/types.js';
import type { AgentEvent, QueryResult } from '../engine/events.js';
import { query, type QueryOptions } from '../engine/query.js';
import type { PermissionPolicy } from '../permissions/types.js';
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
  onEvent?: (event: AgentEvent) => void;
  /** Sees the engine's inspection events (the live inspector). */
  inspect?: QueryOptions['inspect'];
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
    contextWindow: config.contextWindow,
    home: config.home,
    signal: run.signal,
    sessionId: run.sessionId,
    sessionDir: path.join(config.home, 'sessions', run.sessionId),
    messages: run.messages,
    ...(run.inspect ? { inspect: run.inspect } : {}),
  });
  for await (const event of events) {
    run.onEvent?.(event);
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
