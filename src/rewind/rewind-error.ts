/** Why a rewind or a fork cannot be done as asked; the CLI says the message and exits 2. */
export type RewindErrorCode = 'REWIND_NO_SUCH_MESSAGE' | 'REWIND_CONFLICT' | 'REWIND_FAILED';

export class RewindError extends Error {
  override readonly name = 'RewindError';
  constructor(
    readonly code: RewindErrorCode,
    message: string,
    /** For REWIND_CONFLICT: the files changed outside xagent. */
    readonly files: readonly string[] = [],
  ) {
    super(message);
  }
}
