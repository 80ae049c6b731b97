import type { EngineStatePath } from '../../machines/query-engine.js';
import type { TraceStateRecord } from '../sessions/records.js';
import type { HookRunReport } from '../hooks/types.js';
import type { EngineError, PermissionDecision, StopReason, ToolCall, Usage } from '../../machines/types.js';

/** One state line of trace.jsonl (the record version aside): a state entered, how, and what the state has. */
export type TraceLine = Omit<TraceStateRecord, 'v'>;

/** The summary of a finished task; the `result` event and the CLI's json output. */
export interface QueryResult {
  type: 'result';
  reason: StopReason;
  is_error: boolean;
  /** The last assistant text of the task. */
  text: string;
  session_id: string;
  turns: number;
  tool_calls: number;
  usage: Usage;
  /** At the model's list price; null when the price is unknown (or the model is scripted). */
  total_cost_usd: number | null;
  duration_ms: number;
  trace_path: string | null;
  error?: EngineError;
  decision?: PermissionDecision;
  /** The tool call at which the task stopped (refused, crashed, interrupted). */
  call?: ToolCall;
  /** The API's stop_reason of the last response, e.g. max_tokens for an answer that was cut off. */
  model_stop_reason?: string;
}

/** What query() yields, in order. `state` carries the same fields as the trace line. */
export type AgentEvent =
  | ({ type: 'state'; name: EngineStatePath } & Omit<TraceLine, 'state'>)
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'tool_start'; call: ToolCall }
  | { type: 'tool_result'; call: ToolCall; result: { content: string; is_error: boolean; sandboxed?: boolean } }
  | { type: 'usage'; usage: Usage; total: Usage }
  | { type: 'retry'; attempt: number; delay_ms: number; status?: number; message: string }
  | {
      type: 'compact';
      reason: 'threshold' | 'prompt_too_long';
      tokens_before: number;
      /** null when the compaction failed or found nothing to cut. */
      tokens_after: number | null;
      removed_messages: number;
      error?: string;
    }
  /** One hook run: which event, which command (or `function`), its exit code, duration and outcome. */
  | ({ type: 'hook' } & HookRunReport)
  | { type: 'turn_end'; reason: string }
  | QueryResult;

export type AgentEventType = AgentEvent['type'];
