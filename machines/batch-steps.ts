import { assign } from 'xstate';
import { toolFailure } from './call-steps.js';
import type { EngineContext, EngineEvent } from './engine-context.js';
import { ownLimits, type TaskLimits } from './task-limits.js';
import { hasHooks } from './hook-steps.js';
import { isRecoverable } from './recovery.js';
import type { EngineError, PermissionDecision, ToolCall, ToolResult, ToolResultBlock, Validation } from './types.js';

/**
 * A batch: the calls of one response that may run together. From the call being worked on, the
 * longest run of calls that are valid, allowed by the rules without asking, concurrency-safe
 * (read-only tools, subagents) and have no PreToolUse or PostToolUse hook; a run of two or more is
 * a batch, planned in a routing state of its own (`ask_permission.planning_batch`, so the trace,
 * the inspector, the diagram and the paths see the decision), which `execute_tool.batch` runs as
 * children of the chart, one per call (a tool call's `executeTool`, a task call's child chart),
 * each with its own status. Anything else (a write, a
 * command, an ask, a hook) ends the run and goes one call at a time, in the model's order.
 */

/** Where one call of a batch stands: waiting for a place, running as a child, or done with its outcome. */
export type BatchStatus = 'waiting' | 'running' | 'done';

/** One call of a batch, with the rules' decision that let it in (always allow), its status and, once done, its outcome. */
export interface BatchCall {
  call: ToolCall;
  decision: PermissionDecision;
  status: BatchStatus;
  /** The child's agent path, for a task call once it started (`main/task-2`). */
  agent?: string;
  outcome?: BatchOutcome;
}

/** How many children of a batch run at once: subagents (each a whole agent), and the other calls (reads). */
export const BATCH_LIMITS = { subagents: 4, tools: 10 } as const;

/** The id of the child that runs the batch's i-th call (its done event is `xstate.done.actor.batch-<i>`). */
export const batchChildId = (index: number) => `batch-${index}`;

/** Which call of the batch a child's done or error event is about, by the child's id; -1 for another actor's. */
export function batchIndexOf(eventType: string): number {
  const match = /^xstate\.(?:done|error)\.actor\.batch-(\d+)$/.exec(eventType);
  return match ? Number(match[1]) : -1;
}

/** What one call of a batch came to: its result, or what it threw (a code the model can fix, or a crash). */
export type BatchOutcome = { result: ToolResult } | { failure: { code?: string; message: string } };

/** The pure rules src provides: the same validator and policy as one call's, and what may run together. */
export interface BatchRules {
  validate: (call: ToolCall) => Validation;
  decide: (call: ToolCall) => PermissionDecision;
  concurrencySafe: (call: ToolCall) => boolean;
  /** The settings' matchers: whether a PreToolUse / PostToolUse hook takes this call. */
  preToolUse: (call: ToolCall) => boolean;
  postToolUse: (call: ToolCall) => boolean;
  /** The task's limits (every agent's calls count); default: this agent's own counters. */
  limits?: TaskLimits;
}

/** A rule that throws keeps the call out of the batch: the one-call path then reports it, named. */
function joins(context: EngineContext, call: ToolCall, rules: BatchRules): PermissionDecision | null {
  try {
    if (context.truncatedIds.includes(call.id)) return null;
    if (!rules.concurrencySafe(call) || !rules.validate(call).ok) return null;
    if (hasHooks(context, 'PreToolUse') && rules.preToolUse(call)) return null;
    if (hasHooks(context, 'PostToolUse') && rules.postToolUse(call)) return null;
    const decision = rules.decide(call);
    return decision.behavior === 'allow' ? decision : null;
  } catch {
    return null;
  }
}

/** The batch that starts at the call being worked on: two or more calls, within the tool budget; else none. */
export function planBatch(context: EngineContext, rules: BatchRules): BatchCall[] {
  const room = (rules.limits ?? ownLimits).toolCallsLeft(context);
  if (context.current?.validation?.ok !== true || room <= 0) return [];
  const batch: BatchCall[] = [];
  for (const call of context.queue.slice(context.results.length, context.results.length + room)) {
    const decision = joins(context, call, rules);
    if (!decision) break;
    batch.push({ call, decision, status: 'waiting' });
  }
  return batch.length >= 2 ? batch : [];
}

/**
 * Builds the entry action of `ask_permission.planning_batch` (a valid call that others follow)
 * from src's rules, or from the rules of the agent the context belongs to; null rules (the chart's default) never batch.
 */
export function planBatchAction(rules: BatchRules | null | ((context: EngineContext) => BatchRules | null)) {
  return assign<EngineContext, EngineEvent, undefined, EngineEvent, never>(({ context }) => {
    const found = typeof rules === 'function' ? rules(context) : rules;
    return { batch: found ? planBatch(context, found) : [] };
  });
}

/** The failure of one call of a batch as the chart routes it (recovery.ts decides). */
export function batchFailure(failure: { code?: string; message: string }): EngineError {
  return toolFailure(Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {}));
}

/** What a child's error event says, as a batch outcome (its code kept: recovery.ts tells a fixable failure from a crash). */
export function failureOf(error: unknown): BatchOutcome {
  const code = (error as { code?: unknown } | null)?.code;
  return { failure: { ...(typeof code === 'string' ? { code } : {}), message: error instanceof Error ? error.message : String(error) } };
}

/** Every call of the batch is done. */
export function batchFinished(batch: readonly BatchCall[]): boolean {
  return batch.every((b) => b.status === 'done');
}

/** A call of the batch crashed (not a failure the model can fix): the task stops with tool_error once all results are in. */
export function batchCrashed(batch: readonly BatchCall[]): boolean {
  return batch.some((b) => b.outcome !== undefined && 'failure' in b.outcome && !isRecoverable(batchFailure(b.outcome.failure).code));
}

/** One tool_result per call of the batch, in the model's order; the first crash, if any, for the stop to report. */
export function batchResults(batch: readonly BatchCall[]): {
  blocks: ToolResultBlock[];
  crash: { call: ToolCall; error: EngineError } | null;
} {
  let crash: { call: ToolCall; error: EngineError } | null = null;
  const blocks = batch.map(({ call, outcome: given }): ToolResultBlock => {
    const outcome = given ?? { failure: { message: 'the batch gave no result for this call' } };
    if ('result' in outcome) {
      return { type: 'tool_result', tool_use_id: call.id, content: outcome.result.content, is_error: outcome.result.isError };
    }
    const error = batchFailure(outcome.failure);
    const fatal = !isRecoverable(error.code);
    if (fatal && !crash) crash = { call, error };
    return {
      type: 'tool_result',
      tool_use_id: call.id,
      content: fatal ? `The tool failed: ${error.message}` : error.message,
      is_error: true,
    };
  });
  return { blocks, crash };
}
