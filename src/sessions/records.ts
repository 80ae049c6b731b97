import type { Message, ToolCall, Usage } from '../../machines/types.js';
import type { Step } from '../engine/step.js';
import { SessionError } from './errors.js';
import type { HookRunReport } from '../hooks/types.js';

/**
 * The line formats of trace.jsonl, transcript.jsonl and audit.jsonl. Every line this xagent writes
 * carries `v`, the format's version. Lines without `v` are version 1 (written before versions
 * existed) and are read as they are; a line from a newer xagent is refused (SessionError `SESSION_UNREADABLE`, exit 2).
 */
export const RECORD_VERSION = 2;

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
export type TraceStateRecord = { v: number; ts: string; session_id: string; state: Step['state'] } & Omit<
  Step,
  'state' | 'toolCallCount'
> & { tool_call_count: number };

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
    }
  | {
      v: number;
      event: 'retry';
      ts: string;
      session_id: string;
      state: 'call_model' | 'call_model.requesting';
      turn: number;
      attempt: number;
      delay_ms: number;
      status?: number;
      message: string;
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
    }
  | ({
      v: number;
      event: 'hook';
      ts: string;
      session_id: string;
      turn: number;
    } & HookRunReport);

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

export function traceStateRecord(step: Step, ts: string, sessionId: string): TraceStateRecord {
  const { seq, state, via, turn, toolCallCount, usage, ...rest } = step;
  return { v: RECORD_VERSION, seq, ts, session_id: sessionId, state, via, turn, tool_call_count: toolCallCount, usage, ...rest };
}

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
