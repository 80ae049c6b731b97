import type { EngineStatePath } from '../../machines/query-engine.js';
import type { EvidenceRecord, ResultFields, TraceStateRecord } from '../sessions/records.js';
import type { HookRunReport } from '../hooks/types.js';
import type { ToolCall, Usage } from '../../machines/types.js';

/** One state line of trace.jsonl (the record version aside): a state entered, how, and what the state has. */
export type TraceLine = Omit<TraceStateRecord, 'v'>;

/** The summary of a finished task; the `result` event and the CLI's json output. */
export type QueryResult = { type: 'result'; session_id: string; agent?: string } & ResultFields;

/**
 * Where an event stands in the task's evidence log: every event but the streamed deltas is a line
 * of trace.jsonl as well, and carries that line's `seq`, `ts` and `session_id`.
 */
export interface EventStamp {
  /** The agent whose event it is: `main`, or a subagent's path (`main/task-1`). */
  agent?: string;
  seq?: number;
  ts?: string;
  session_id?: string;
}

/**
 * What query() yields, in order: each evidence line of the trace as an event (`eventOf`: its
 * `event` becomes `type`, a state line's `state` becomes `name`), plus the text and thinking deltas
 * as they stream, and the result.
 */
export type AgentEvent =
  | ({ type: 'state'; name: EngineStatePath } & Omit<TraceLine, 'state'>)
  | { type: 'text_delta'; text: string; agent?: string }
  | { type: 'thinking_delta'; thinking: string; agent?: string }
  | ({ type: 'tool_start'; call: ToolCall } & EventStamp)
  | ({
      type: 'tool_result';
      call: ToolCall;
      result: { content: string; is_error: boolean; sandboxed?: boolean };
      duration_ms?: number;
    } & EventStamp)
  | ({ type: 'usage'; usage: Usage; total: Usage } & EventStamp)
  | ({
      type: 'retry';
      attempt: number;
      delay_ms: number;
      status?: number;
      message: string;
      turn?: number;
      state?: string;
      call?: ToolCall;
    } & EventStamp)
  | ({
      type: 'compact';
      reason: 'threshold' | 'prompt_too_long';
      tokens_before: number;
      /** null when the compaction failed or found nothing to cut. */
      tokens_after: number | null;
      removed_messages: number;
      kept_messages?: number;
      turn?: number;
      usage?: Usage;
      error?: string;
    } & EventStamp)
  /** One hook run: which event, which command (or `function`), its exit code, duration and outcome. */
  | ({ type: 'hook'; turn?: number } & HookRunReport & EventStamp)
  | ({ type: 'turn_end'; reason: string } & EventStamp)
  | QueryResult;

export type AgentEventType = AgentEvent['type'];

/**
 * The event a line of the evidence log is: the one projection from records to events, which the
 * stream, the live inspector and a replay all use. Lines that are no event (task_start, a turn's
 * whole text, which streamed as deltas) give null; the result line gives the `result` event.
 */
export function eventOf(record: EvidenceRecord): AgentEvent | null {
  if (!('event' in record)) return onto({ type: 'state', name: record.state }, record, STATE_SKIP);
  switch (record.event) {
    case 'task_start':
    case 'text':
      return null;
    case 'result':
      return onto({ type: 'result' }, record, RESULT_SKIP);
    default:
      return onto({ type: record.event }, record, LINE_SKIP);
  }
}

const STATE_SKIP = new Set(['v', 'state']);
const RESULT_SKIP = new Set(['v', 'event', 'seq', 'ts']);
const LINE_SKIP = new Set(['v', 'event']);

/** `head` with the record's fields after it, but the skipped ones: one object per line (every line of every round comes here). */
function onto(head: Record<string, unknown>, record: object, skip: ReadonlySet<string>): AgentEvent {
  for (const key in record) if (!skip.has(key)) head[key] = (record as Record<string, unknown>)[key];
  return head as AgentEvent;
}

/** An event of a subagent (its path is not `main`): the main task's renderers leave it to the subagent lines. */
export function fromSubagent(event: AgentEvent | { agent?: string }): boolean {
  return 'agent' in event && event.agent !== undefined && event.agent !== 'main';
}
