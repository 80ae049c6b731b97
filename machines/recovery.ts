import type { EngineErrorCode, StopReason } from './types.js';

/** The codes a tool call can end with (validation, the tool itself); the model errors aside. */
export const TOOL_ERROR_CODES: readonly EngineErrorCode[] = [
  'TOOL_INPUT_INVALID',
  'TOOL_NOT_FOUND',
  'TOOL_INPUT_TRUNCATED',
  'TOOL_FAILED',
  'PERMISSION_DENIED',
];

/**
 * The one place that decides whether a failure goes back to the model as data (recoverable) or
 * ends the task. The model can fix a wrong name or a wrong input; it cannot fix a crashed tool.
 */
export function isRecoverable(code: EngineErrorCode): boolean {
  switch (code) {
    case 'TOOL_INPUT_INVALID':
    case 'TOOL_NOT_FOUND':
    case 'TOOL_INPUT_TRUNCATED':
      return true;
    case 'TOOL_FAILED':
    case 'MODEL_ERROR':
    case 'PERMISSION_DENIED':
      return false;
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

/** The text of a synthetic tool_result for a call that a stop left without one. */
export function notExecutedText(reason: StopReason): string {
  switch (reason) {
    case 'user_abort':
      return 'not executed: task aborted by the user';
    case 'timeout':
      return 'not executed: task timed out';
    case 'max_turns':
      return 'not executed: the task reached its limit of model turns';
    case 'max_tool_calls':
      return 'not executed: the task reached its limit of tool calls';
    case 'permission_denied':
      return 'not executed: an earlier tool call in this response was refused permission';
    case 'tool_error':
      return 'not executed: an earlier tool call in this response failed';
    case 'model_error':
      return 'not executed: the model request failed';
    case 'final_answer':
      return 'not executed';
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
}
