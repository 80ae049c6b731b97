import type { StopReason } from '../../machines/types.js';
import { faultOf, type Fault } from '../errors/xagent-error.js';

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

/** The machine said no (a full disk, an I/O error writing the session): free space, then --continue. */
export const SYSTEM_EXIT_CODE = 9;

/**
 * The exit code for an error that ends the command before or outside a task (a task's own end is
 * its stop reason, above). The one place faults become exit codes.
 */
export function exitCodeForFault(fault: Fault): number {
  switch (fault) {
    case 'usage':
    case 'config':
    case 'session':
      return USAGE_EXIT_CODE;
    case 'model':
      return exitCodeFor('model_error');
    case 'tool':
      return exitCodeFor('tool_error');
    case 'system':
      return SYSTEM_EXIT_CODE;
    case 'internal':
      return 1;
    default: {
      const unreachable: never = fault;
      return unreachable;
    }
  }
}

/** `exitCodeForFault` of anything thrown: 1 for an error that is not xagent's own (a bug). */
export function exitCodeForError(error: unknown): number {
  return exitCodeForFault(faultOf(error));
}

export { UsageError } from '../errors/xagent-error.js';
