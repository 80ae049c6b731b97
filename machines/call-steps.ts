import { assign } from 'xstate';
import { nextCall, type CurrentCall, type EngineContext, type EngineEvent } from './engine-context.js';
import { ownLimits, type TaskLimits } from './task-limits.js';
import { isRecoverable, TOOL_ERROR_CODES } from './recovery.js';
import type { EngineError, EngineErrorCode, ModelResponse, PermissionDecision, ToolCall, ToolUseBlock, Validation } from './types.js';

/**
 * The steps of working through one tool call, as the chart's actions and guards use them. The two
 * builders take the pure rules src/ provides (the tool registry's validator, the permission policy).
 */

function checkCall(current: CurrentCall, validate: (call: ToolCall) => Validation): Validation {
  if (!current.truncated) return validate(current.call);
  return {
    ok: false,
    error: {
      code: 'TOOL_INPUT_TRUNCATED',
      message: `The input of ${current.call.name} was cut off (the response hit max_tokens), so it was not run. Send it again, shorter.`,
    },
  };
}

/**
 * Builds the entry action of `validate_tool` from a pure validator (the tool registry's): the next
 * queued call becomes `current`, a fresh record, and is validated. A call the budget will not let
 * run is left unchecked: the maxToolCallsReached guard stops the task next, and the stop must not
 * report a validation error of a call that was never going to run. `limits`: the task's (task-limits.ts).
 */
export function validateCallAction(validate: (call: ToolCall, context: EngineContext) => Validation, limits: TaskLimits = ownLimits) {
  return assign<EngineContext, EngineEvent, undefined, EngineEvent, never>(({ context }) => {
    const current = nextCall(context);
    if (!current || limits.toolCallsLeft(context) <= 0) return { current };
    let validation: Validation;
    try {
      validation = checkCall(current, (call) => validate(call, context));
    } catch (error) {
      return { current: { ...current, error: ruleFailure(error) } };
    }
    return { current: { ...current, validation, error: validation.ok ? null : validation.error } };
  });
}

/** Builds the action that decides one call on its way into `ask_permission`, from a pure policy (rules, mode, defaults). */
export function decidePermissionAction(decide: (call: ToolCall, context: EngineContext) => PermissionDecision) {
  return assign<EngineContext, EngineEvent, undefined, EngineEvent, never>(({ context }) => {
    const { current } = context;
    if (!current) return {};
    try {
      return { current: withDecision(current, decide(current.call, context)) };
    } catch (error) {
      return { current: { ...current, error: ruleFailure(error) } };
    }
  });
}

/**
 * A rule src provided threw (a tool schema that does not compile, a policy that crashed). The
 * call records it and the `ruleFailed` guard stops the task with tool_error: a named stop, not a crash.
 */
export function ruleFailure(error: unknown): EngineError {
  return { code: 'TOOL_FAILED', message: `internal error: ${errorMessage(error)}` };
}

/** The call's rules failed before anything ran (see ruleFailure). */
export function ruleFailed(current: CurrentCall | null): boolean {
  return current !== null && current.error?.code === 'TOOL_FAILED' && current.decision === null;
}

/** The call with a decision made; a denial is also the call's error. */
export function withDecision(current: CurrentCall, decision: PermissionDecision): CurrentCall {
  const error: EngineError | null =
    decision.behavior === 'deny'
      ? { code: 'PERMISSION_DENIED', message: decision.message ?? `Permission denied (${decision.decidedBy}).` }
      : null;
  return { ...current, decision, error };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The codes a tool can fail with that the model can fix; recovery.ts says which those are. */
const MODEL_FIXABLE: ReadonlySet<string> = new Set(TOOL_ERROR_CODES.filter(isRecoverable));

/** Failures thrown by the tool actor that carry a code the model can fix keep it; anything else is a crash. */
export function toolFailure(error: unknown): EngineError {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && MODEL_FIXABLE.has(code)) return { code: code as EngineErrorCode, message: errorMessage(error) };
  return { code: 'TOOL_FAILED', message: errorMessage(error) };
}

export function toolCalls(response: ModelResponse): ToolCall[] {
  return response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use').map(({ id, name, input }) => ({ id, name, input }));
}
