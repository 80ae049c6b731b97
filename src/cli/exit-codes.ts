import type { StopReason } from '../../machines/types.js';

/** The process exit code for each stop reason; a pipeline branches on these. */
export function exitCodeFor(reason: StopReason): number {
  switch (reason) {
    case 'final_answer':
      return 0;
    case 'max_turns':
      return 3;
    case 'max_tool_calls':
      return 4;
    case 'timeout':
      return 5;
    case 'permission_denied':
      return 6;
    case 'tool_error':
      return 7;
    case 'model_error':
      return 8;
    case 'user_abort':
      return 130;
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
}

/** Bad flags, a missing key, a malformed settings file: nothing was sent to the model. */
export const USAGE_EXIT_CODE = 2;

export { UsageError } from '../run/usage-error.js';
