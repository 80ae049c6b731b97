import type { QueryResult } from '../engine/events.js';
import { DEFAULT_LIMITS } from '../engine/limits.js';
import { stopMessage } from '../engine/stop-message.js';
import type { InspectorLimits, RecordBody } from './records.js';

type ResultFields = Omit<QueryResult, 'type' | 'session_id' | 'trace_path' | 'duration_ms'> & { duration_ms?: number };

/** The `result` record: what the user was told at the end (the stop message, or for a final answer the answer). */
export function resultRecord(result: ResultFields, limits: InspectorLimits): RecordBody {
  const message = stopMessage(
    { ...result, type: 'result', session_id: '', trace_path: null, duration_ms: result.duration_ms ?? 0 },
    { ...DEFAULT_LIMITS, ...limits },
  );
  return {
    kind: 'result',
    reason: result.reason,
    is_error: result.is_error,
    stop_message: message || result.text,
    text: result.text,
    turns: result.turns,
    tool_calls: result.tool_calls,
    usage: result.usage,
    ...(result.duration_ms !== undefined ? { duration_ms: result.duration_ms } : {}),
    ...(result.error ? { error: result.error } : {}),
    ...(result.decision ? { decision: result.decision } : {}),
    ...(result.call ? { call: result.call } : {}),
  };
}
