import type { EngineError, Message, PermissionDecision, StopReason, ToolCall, Usage } from '../../machines/types.js';
import type { Step } from './step.js';
import { SessionError } from './errors.js';
import type { HookRunReport } from '../hooks/types.js';

/**
 * The line formats of trace.jsonl, transcript.jsonl and audit.jsonl. Every line this xagent writes
 * carries `v`, the format's version. Lines without `v` are version 1 (written before versions
 * existed) and are read as they are; a line from a newer xagent is refused (SessionError `SESSION_UNREADABLE`, exit 2).
 *
 * trace.jsonl is the run's one ordered evidence log. Since version 3 every line has `seq` (one
 * count per task, task_start is 0), `ts` and `session_id`, and the log holds everything the
 * inspector, stream-json and a replay show: states, hook runs, retries, compactions, tool starts
 * and results, each turn's text, usage, and the result. Version 2 had sequence numbers on state
 * lines only, and the tool results and text lived only in audit.jsonl and transcript.jsonl.
 * Version 4 keeps each tool output once: the main agent's `tool_result` lines leave the output to
 * the transcript and say so (`result: {is_error, stored: 'transcript', length}`, tool-outputs.ts);
 * `readSessionRecords` puts it back. A subagent's lines keep theirs (its conversation is not in
 * the transcript).
 */
export const RECORD_VERSION = 4;

/** The first version whose trace holds the whole run in order (a replay reads it instead of piecing it together). */
export const ORDERED_LOG_VERSION = 3;

/** The version of a parsed line; throws for one newer than this xagent reads. */
export function recordVersion(value: unknown, file: string): number {
  const v = (value as { v?: unknown } | null)?.v;
  if (v === undefined) return 1;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
    throw new SessionError('SESSION_UNREADABLE', `${file}: a line has an invalid record version ${JSON.stringify(v)}`);
  if (v > RECORD_VERSION) {
    throw new SessionError(
      'SESSION_UNREADABLE',
      `${file} was written by a newer xagent (record version ${v}); this one reads up to ${RECORD_VERSION}`,
    );
  }
  return v;
}

/** A state line of trace.jsonl: a state entered, the event that entered it, what the state holds. */
export type TraceStateRecord = { v: number; seq: number; ts: string; session_id: string; agent?: string; state: Step['state'] } & Omit<
  Step,
  'state' | 'toolCallCount'
> & { tool_call_count: number };

/** What every line of the evidence log carries besides its own fields: stamped by the session sink. */
export interface Stamp {
  v: number;
  /** Its place in the task's log: task_start is 0, every later line one more. Absent before version 3 on annotations. */
  seq: number;
  ts: string;
  session_id: string;
  /**
   * The path of the agent that wrote the line: `main` at the top level, `main/task-1` for the
   * subagent its first task call started, `main/task-1/task-1` below that. Absent on lines written
   * before subagents existed (read as `main`).
   */
  agent?: string;
}

/** Lines of trace.jsonl that are not states; told apart by `event`, which state lines never have. */
export type TraceAnnotation =
  | {
      v: number;
      event: 'task_start';
      ts: string;
      session_id: string;
      model: string;
      prompt: string;
      limits: { max_turns: number; max_tool_calls: number; timeout_ms: number };
      /** The instruction files (AGENTS.md, CLAUDE.md) in the system prompt, in order. */
      instructions?: string[];
      /** The window compaction keeps the conversation under. */
      context_window?: number;
      /** The fingerprint of the chart that ran the task (chartGraph().fingerprint); absent before version 3. */
      chart?: string;
      seq?: number;
    }
  | {
      v: number;
      event: 'retry';
      ts: string;
      session_id: string;
      /** execute_tool: a durable task's tool call that runs again because its worker died while it ran (src/restate/). */
      state: 'call_model' | 'call_model.requesting' | 'execute_tool.running';
      turn: number;
      attempt: number;
      delay_ms: number;
      status?: number;
      message: string;
      /** The tool call that runs again (state execute_tool). */
      call?: ToolCall;
      seq?: number;
    }
  | {
      v: number;
      event: 'compact';
      ts: string;
      session_id: string;
      turn: number;
      reason: 'threshold' | 'prompt_too_long';
      /** Estimated prompt tokens before and after; null after when the compaction failed or had nothing to cut. */
      tokens_before: number;
      tokens_after: number | null;
      removed_messages: number;
      kept_messages: number;
      usage?: Usage;
      error?: string;
      seq?: number;
    }
  | ({
      v: number;
      event: 'hook';
      ts: string;
      session_id: string;
      turn: number;
      seq?: number;
    } & HookRunReport)
  | (Stamp & { event: 'tool_start'; call: ToolCall })
  | (Stamp & {
      event: 'tool_result';
      call: ToolCall;
      /** The output, as the engine and listeners see it; on disk the main agent's is in the transcript instead (tool-outputs.ts). */
      result: { content: string; is_error: boolean; sandboxed?: boolean };
      duration_ms: number;
    })
  /** The text of one finished model response (it streamed as deltas, which are not evidence lines). */
  | (Stamp & { event: 'text'; turn: number; text: string })
  | (Stamp & { event: 'usage'; usage: Usage; total: Usage })
  | (Stamp & { event: 'turn_end'; reason: string })
  /** How the task ended, as the `result` event says it (its `type` aside). */
  | (Stamp & { event: 'result' } & ResultFields)
  /** A rewind (src/rewind/): the session went back to a user message; the lines before it stay. */
  | (Stamp & RewindRecordBody)
  /** A forked session's first line: the session and message its conversation came from. */
  | (Stamp & ForkRecordBody);

/** How a task ended: the `result` line, and (with `type` and `session_id`) query()'s result event and the CLI's json output. */
export interface ResultFields {
  reason: StopReason;
  is_error: boolean;
  /** The last assistant text of the task. */
  text: string;
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

export type TraceRecord = TraceStateRecord | TraceAnnotation;

export function isStateRecord(record: unknown): record is TraceStateRecord {
  return typeof record === 'object' && record !== null && !('event' in record) && typeof (record as { state?: unknown }).state === 'string';
}

export function isAnnotation<E extends TraceAnnotation['event']>(
  record: unknown,
  event: E,
): record is Extract<TraceAnnotation, { event: E }> {
  return typeof record === 'object' && record !== null && (record as { event?: unknown }).event === event;
}

/** A state line without its stamp: what the engine hands the sink. */
export type StateBody = Omit<TraceStateRecord, keyof Stamp>;

/** Any line of trace.jsonl without its stamp (v, seq, ts, session_id): what the engine hands the sink. */
export type EvidenceBody = StateBody | (TraceAnnotation extends infer A ? (A extends unknown ? Omit<A, keyof Stamp> : never) : never);

/** A line of trace.jsonl as this xagent writes it: a body with its stamp. */
export type EvidenceRecord = TraceRecord & Stamp;

/** A line of transcript.jsonl: one message as sent to the model. */
export type TranscriptRecord = { v: number } & Message;

export function transcriptRecord(message: Message): TranscriptRecord {
  return { v: RECORD_VERSION, ...message };
}

/** A line of audit.jsonl: one tool execution, finished, failed or aborted. */
export interface AuditRecord {
  v: number;
  ts: string;
  session_id: string;
  call: ToolCall;
  duration_ms: number;
  is_error: boolean;
  aborted: boolean;
  crashed?: boolean;
  /** The tool ran its process inside the OS sandbox (bash with --sandbox). */
  sandboxed?: boolean;
  /** The result's first 2,000 characters. */
  content: string;
}

/**
 * The evidence line a rewind (src/rewind/) writes to trace.jsonl, through the session writer as
 * every line, so the inspector shows it and the history before it stays readable in the log.
 */
export interface RewindRecordBody {
  event: 'rewind';
  rewind_id: string;
  /** The user message rewound to (1 is the first), and the start of its text. */
  to: number;
  message: string;
  /** Which halves were put back. */
  code: boolean;
  conversation: boolean;
  /** Messages the conversation had before and after. */
  messages_before: number;
  messages_after: number;
  files: Array<{ path: string; action: 'restored' | 'deleted' }>;
  /** Files a code rewind could not put back, and why. */
  left: Array<{ path: string; why: string }>;
}

/** The first line a fork writes to its new session's trace: where its conversation came from. */
export interface ForkRecordBody {
  event: 'fork';
  from_session: string;
  /** The user message the fork starts before, or null for the whole conversation (--fork-session). */
  at: number | null;
  messages: number;
  /** The person's messages the fork's conversation holds: the next one is number `user_messages + 1`. */
  user_messages: number;
}
