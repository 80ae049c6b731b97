import { UsageError } from '../errors/xagent-error.js';

/** Why a rewind or a fork cannot be done as asked; the CLI says the message and exits 2. */
export type RewindErrorCode = 'REWIND_NO_SUCH_MESSAGE' | 'REWIND_CONFLICT' | 'REWIND_FAILED' | 'REWIND_LOG_INVALID';

/**
 * A rewind refused or failed: no such message, files changed outside xagent, or the disk said no
 * (then the message says whether anything changed). Fault `session`: the session is as it was, or
 * finished the next time it is opened.
 * @example throw new RewindError('REWIND_CONFLICT', 'not rewound: notes.txt was changed outside xagent', ['notes.txt']);
 */
export class RewindError extends UsageError {
  override readonly name = 'RewindError';
  override readonly fault = 'session' as const;
  constructor(
    readonly code: RewindErrorCode,
    message: string,
    /** For REWIND_CONFLICT: the files changed outside xagent. */
    readonly files: readonly string[] = [],
  ) {
    super(message);
  }
}
