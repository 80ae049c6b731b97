import type { ToolCall } from '../../machines/types.js';
import type { ResultWithClaudeCodeFields } from '../run/claude-result.js';
import type { PriceFields } from '../run/price-fields.js';

/** What `xagent wait` prints: the object `xagent -p --output-format json` prints for the same task. */
export type TaskOutput = ResultWithClaudeCodeFields & Partial<PriceFields>;

/**
 * What `xagent tasks` shows of a task: kept in the task's Restate state by the worker running it
 * (so any machine can read it while the task runs or waits), JSON throughout.
 */
export interface TaskStatus {
  /** The chart's state (its full path, `ask_permission.asking_user`), or `starting` before the chart runs. */
  state: string;
  prompt: string;
  workspace: string;
  turn: number;
  tool_calls: number;
  /** The calls waiting for `xagent approve` / `xagent deny`, oldest first. */
  waiting: WaitingCall[];
  /** Set once the task ended: its stop reason. */
  reason?: string;
  /** A task that could not run (a bad workspace, untrusted project files): why. */
  error?: string;
  /** Where the worker serves this task's live inspector (loopback of the worker's machine), when submitted with --inspect. */
  inspector?: string;
  /** The calls answered so far, with who answered each. */
  answered?: AnsweredCall[];
}

export interface WaitingCall {
  tool_use_id: string;
  name: string;
  input: unknown;
  /** Why the rules asked (the decision's decidedBy). */
  asked_because: string;
}

/** What `xagent approve` / `xagent deny` send to the task: the person's answer to one call. */
export interface CallAnswer {
  tool_use_id: string;
  answer: { kind: 'yes' } | { kind: 'no' } | { kind: 'feedback'; text: string };
  /** Who answers (`--as`, else user@host where the command ran): named in the trace's decision and the status. */
  by?: string;
  /** The task's approval token (`--token`), when it was submitted with one. */
  token?: string;
}

/** What the call's durable promise holds: the answer and who gave it (never the token). */
export interface GivenAnswer {
  answer: CallAnswer['answer'];
  by: string;
}

/** A call answered, as the status keeps it. */
export interface AnsweredCall {
  tool_use_id: string;
  answer: CallAnswer['answer']['kind'];
  by: string;
}

export function waitingCall(call: ToolCall, askedBecause: string): WaitingCall {
  return { tool_use_id: call.id, name: call.name, input: call.input, asked_because: askedBecause };
}

/** The Restate workflow that runs xagent tasks (task-workflow.ts); the clients name it in URLs. */
export const TASK_SERVICE = 'XagentTask';
