import type { InspectionEvent } from 'xstate';
import type { AgentEvent, QueryResult } from '../engine/events.js';
import { DEFAULT_LIMITS } from '../engine/query.js';
import { stopMessage } from '../cli/stop-message.js';
import type { InspectorHistory } from './history.js';
import type { InspectorLimits, RecordBody, Via } from './records.js';

export interface RunMeta {
  sessionId: string;
  model?: string;
  limits: InspectorLimits;
  workspace?: string;
  prompt?: string;
}

/** Connects one run to a history: `inspect` goes to query()'s `inspect` option, `onEvent` sees each AgentEvent. */
export interface LiveFeed {
  inspect(event: InspectionEvent): void;
  onEvent(event: AgentEvent): void;
}

/** What the user is told at the end: the stop message, or for a final answer the answer. */
export function resultRecord(result: Omit<QueryResult, 'type' | 'session_id' | 'trace_path' | 'duration_ms'> & { duration_ms?: number }, limits: InspectorLimits): RecordBody {
  const full = { maxTurns: DEFAULT_LIMITS.maxTurns, maxToolCalls: DEFAULT_LIMITS.maxToolCalls, timeoutMs: DEFAULT_LIMITS.timeoutMs, ...limits };
  const message = stopMessage({ ...result, type: 'result', session_id: '', trace_path: null, duration_ms: result.duration_ms ?? 0 }, full);
  return {
    kind: 'result',
    reason: result.reason,
    is_error: result.is_error,
    stop_message: message || result.text,
    text: result.text,
    turns: result.turns,
    tool_calls: result.tool_calls,
    usage: result.usage,
    ...(result.total_cost_usd !== undefined ? { total_cost_usd: result.total_cost_usd } : {}),
    ...(result.duration_ms !== undefined ? { duration_ms: result.duration_ms } : {}),
    ...(result.error ? { error: result.error } : {}),
    ...(result.decision ? { decision: result.decision } : {}),
    ...(result.call ? { call: result.call } : {}),
  };
}

/** Turns an AgentEvent into the record the page gets; the `state` event keeps its trace fields. */
export function recordOf(event: AgentEvent, limits: InspectorLimits, via?: Via): RecordBody {
  switch (event.type) {
    case 'state': {
      const { type: _type, ts: _ts, session_id: _sid, ...fields } = event;
      return { kind: 'state', ...fields, ...(via ? { via } : {}) };
    }
    case 'text_delta':
      return { kind: 'text', text: event.text };
    case 'thinking_delta':
      return { kind: 'thinking', text: event.thinking };
    case 'tool_start':
      return { kind: 'tool_start', call: event.call };
    case 'tool_result':
      return { kind: 'tool_result', call: event.call, result: event.result };
    case 'usage':
      return { kind: 'usage', usage: event.usage, total: event.total };
    case 'retry': {
      const { type: _type, ...fields } = event;
      return { kind: 'retry', ...fields };
    }
    case 'turn_end':
      return { kind: 'turn_end', reason: event.reason };
    case 'result':
      return resultRecord(event, limits);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * Feeds one live run into `history`, starting with a `meta` record. From the engine's microsteps
 * it keeps only which event moved the chart (a few strings per step), to mark the transition taken.
 * @example const feed = liveFeed(history, { sessionId, limits }); query(prompt, { ...options, inspect: feed.inspect })
 */
export function liveFeed(history: InspectorHistory, meta: RunMeta): LiveFeed {
  history.append({
    kind: 'meta',
    mode: 'live',
    session_id: meta.sessionId,
    limits: meta.limits,
    ...(meta.model ? { model: meta.model } : {}),
    ...(meta.workspace ? { workspace: meta.workspace } : {}),
    ...(meta.prompt ? { prompt: meta.prompt } : {}),
  });
  let rootId: string | undefined;
  // vias[k] entered the state of trace seq k + 1 (seq 0, build_context, is entered by start-up).
  let vias: Array<Via | undefined> = [];

  return {
    inspect(event) {
      if (event.type !== '@xstate.microstep' || event.actorRef.sessionId !== event.rootId) return;
      if (event.rootId !== rootId) {
        rootId = event.rootId;
        vias = [];
      }
      const taken = event._transitions.filter((t) => t.target !== undefined);
      const last = taken.at(-1);
      if (!last) return;
      vias.push({ event: last.eventType, from: last.source.key, to: last.target?.[0]?.key ?? last.source.key });
    },
    onEvent(event) {
      let via: Via | undefined;
      if (event.type === 'state' && event.seq > 0) {
        const candidate = vias[event.seq - 1];
        if (candidate?.to === event.name) via = candidate;
        vias[event.seq - 1] = undefined;
      }
      history.append(recordOf(event, meta.limits, via), event.type === 'state' ? event.ts : undefined);
    },
  };
}
