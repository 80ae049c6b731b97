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
 * a batch, which `append_tool_result.batch` runs as one invoked actor. Anything else (a write, a
 * command, an ask, a hook) ends the run and goes one call at a time, in the model's order.
 */

/** One call of a batch, with the rules' decision that let it in (always allow). */
export interface BatchCall {
  call: ToolCall;
  decision: PermissionDecision;
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
    batch.push({ call, decision });
  }
  return batch.length >= 2 ? batch : [];
}

/**
 * Builds the second entry action of `validate_tool` (after validateCall) from src's rules; null
 * rules (the chart's default) never batch.
 */
export function planBatchAction(rules: BatchRules | null) {
  return assign<EngineContext, EngineEvent, undefined, EngineEvent, never>(({ context }) => ({
    batch: rules ? planBatch(context, rules) : [],
  }));
}

/** The failure of one call of a batch as the chart routes it (recovery.ts decides). */
export function batchFailure(failure: { code?: string; message: string }): EngineError {
  return toolFailure(Object.assign(new Error(failure.message), failure.code ? { code: failure.code } : {}));
}

/** A call of the batch crashed (not a failure the model can fix): the task stops with tool_error once all results are in. */
export function batchCrashed(outcomes: readonly BatchOutcome[]): boolean {
  return outcomes.some((o) => 'failure' in o && !isRecoverable(batchFailure(o.failure).code));
}

/** One tool_result per call of the batch, in the model's order; the first crash, if any, for the stop to report. */
export function batchResults(
  batch: readonly BatchCall[],
  outcomes: readonly BatchOutcome[],
): { blocks: ToolResultBlock[]; crash: { call: ToolCall; error: EngineError } | null } {
  let crash: { call: ToolCall; error: EngineError } | null = null;
  const blocks = batch.map(({ call }, i): ToolResultBlock => {
    const outcome = outcomes[i] ?? { failure: { message: 'the batch gave no result for this call' } };
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
