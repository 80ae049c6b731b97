import { XagentError, type Fault } from '../errors/xagent-error.js';

/**
 * What can go wrong between xagent and a Restate server, each with its own exit code, so a script
 * can tell "the server is down" from "no such task" without reading the message.
 */
export const RESTATE_EXIT_CODES = {
  /** The server (ingress or admin API) did not answer, or answered something that is not Restate. */
  RESTATE_UNREACHABLE: 10,
  /** No task has this id. */
  TASK_NOT_FOUND: 11,
  /** The task waits for no call with this tool_use id (never asked, or answered already). */
  CALL_NOT_WAITING: 12,
  /** The server refused a request (registration, submission) and said why. */
  RESTATE_REFUSED: 13,
  /** The task ended without a result: its run failed for good (the message says why). */
  TASK_FAILED: 14,
} as const;

export type RestateErrorCode = keyof typeof RESTATE_EXIT_CODES;

/** Whose problem each is, in the error tree's terms: the server's address and state are configuration; an id is the caller's. */
const FAULT_OF: Record<RestateErrorCode, Fault> = {
  RESTATE_UNREACHABLE: 'config',
  TASK_NOT_FOUND: 'usage',
  CALL_NOT_WAITING: 'usage',
  RESTATE_REFUSED: 'config',
  TASK_FAILED: 'config',
};

/** A failure between xagent and the Restate server; the task commands exit with its own code. */
export class RestateError extends XagentError {
  override readonly name = 'RestateError';
  override readonly fault: Fault;
  constructor(
    readonly code: RestateErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.fault = FAULT_OF[code];
  }

  get exitCode(): number {
    return RESTATE_EXIT_CODES[this.code];
  }
}
