import type { EngineStatePath } from '../../machines/query-engine.js';
import type { TraceLine } from '../engine/events.js';
import type { Via } from '../sessions/step.js';
import type { HookRunReport } from '../hooks/types.js';
import type { ForkRecordBody, RewindRecordBody } from '../sessions/records.js';
import type { EngineError, PermissionDecision, StopReason, ToolCall, Usage } from '../../machines/types.js';

/**
 * What the inspector page receives: small deltas, one per thing that happened, never the whole
 * context or message array (DESIGN.md: serializing the snapshot per event costs 40x).
 * Every record has `i` (its index in the history) and `ts` (ISO time); `kind` says the rest.
 */
export interface RecordBase {
  i: number;
  ts: string;
  /** The agent whose record it is (`main/task-1`); absent for the top level. */
  agent?: string;
}

export interface InspectorLimits {
  maxTurns?: number;
  maxToolCalls?: number;
  timeoutMs?: number;
}

/** The transition that entered a state, as the trace records it (event type and chart edge id). */
export type { Via } from '../sessions/step.js';

export type RecordBody =
  | {
      kind: 'meta';
      session_id: string;
      model?: string;
      limits: InspectorLimits;
      workspace?: string;
      prompt?: string;
      mode: 'live' | 'replay';
      source?: string;
      /**
       * The chart that recorded the run and the one this xagent runs (fingerprints); `recorded` is
       * null for a trace older than fingerprints. When they differ, transitions are matched by id only.
       */
      chart?: { recorded: string | null; current: string };
    }
  | ({ kind: 'state'; name: EngineStatePath } & Omit<TraceLine, 'state' | 'ts' | 'session_id' | 'via'> & { via?: Via })
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tool_start'; call: ToolCall }
  | { kind: 'tool_result'; call: ToolCall; result: { content: string; is_error: boolean; sandboxed?: boolean }; duration_ms?: number }
  | { kind: 'usage'; usage: Usage; total: Usage }
  | { kind: 'retry'; attempt: number; delay_ms: number; status?: number; message: string }
  | ({ kind: 'hook' } & HookRunReport)
  | { kind: 'turn_end'; reason: string }
  | {
      kind: 'compact';
      reason: 'threshold' | 'prompt_too_long';
      tokens_before: number;
      tokens_after: number | null;
      removed_messages: number;
      error?: string;
    }
  | {
      kind: 'result';
      reason: StopReason;
      is_error: boolean;
      /** What the user was told: the stop message, or for final_answer the answer itself. */
      stop_message: string;
      text: string;
      turns: number;
      tool_calls: number;
      usage: Usage;
      total_cost_usd?: number | null;
      duration_ms?: number;
      error?: EngineError;
      decision?: PermissionDecision;
      call?: ToolCall;
    }
  | { kind: 'notice'; message: string }
  /** A subagent's task starts: its own prompt, which its view's conversation begins with. */
  | { kind: 'agent_prompt'; text: string }
  /** A user message starts a task (replay): its number as `xagent rewind --list` gives it, and the command that forks before it. */
  | { kind: 'prompt'; n: number; text: string; fork_command: string | null; why_not?: string }
  /** The session went back to a user message here (src/rewind/); what came before stays in the timeline. */
  | ({ kind: 'rewind' } & Omit<RewindRecordBody, 'event'>)
  /** The session was forked from another one here. */
  | ({ kind: 'fork' } & Omit<ForkRecordBody, 'event'>);

export type InspectorRecord = RecordBase & RecordBody;
export type RecordKind = RecordBody['kind'];
