import { UsageError } from '../errors/xagent-error.js';

/** Why a recorded session cannot be used; the CLI turns every one of these into exit code 2. */
export type SessionErrorCode =
  | 'SESSION_NOT_FOUND'
  | 'SESSION_AMBIGUOUS'
  | 'SESSION_ID_INVALID'
  | 'SESSION_IN_USE'
  | 'SESSION_UNREADABLE'
  | 'NO_SESSION_TO_CONTINUE';

/**
 * A session the user named (or asked for with --continue) that cannot be opened.
 * @example throw new SessionError('SESSION_NOT_FOUND', 'no session "abc" in ~/.xagent/sessions');
 */
export class SessionError extends UsageError {
  override readonly name = 'SessionError';
  override readonly fault = 'session';
  constructor(
    readonly code: SessionErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
