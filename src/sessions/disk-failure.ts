import path from 'node:path';
import { XagentError } from '../errors/xagent-error.js';

/** What the disk, not xagent, refused: no space, no quota, an I/O error, a file too large, a read-only disk. */
const DISK_FAILURES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EIO: 'an input/output error from the device',
  EFBIG: 'the file is larger than the system allows',
  EROFS: 'the file system is read-only',
};

export function isDiskFailure(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code in DISK_FAILURES;
}

/**
 * A session file could not be written because of the disk (ENOSPC, EIO, ...). The task stops
 * (exit 9, fault `system`); what was written up to the last whole line is kept, and once there is
 * room again `xagent --continue` (or `--resume <id>`) goes on from there.
 * @example throw new SessionWriteError('/home/me/.xagent/sessions/abc/trace.jsonl', enospc, 'abc');
 */
export class SessionWriteError extends XagentError {
  override readonly name = 'SessionWriteError';
  override readonly fault = 'system' as const;
  readonly code: 'SESSION_DISK_FULL' | 'SESSION_WRITE_FAILED';
  constructor(
    readonly file: string,
    cause: NodeJS.ErrnoException,
    sessionId: string,
  ) {
    const full = cause.code === 'ENOSPC' || cause.code === 'EDQUOT';
    super(
      `the session could not be written (${path.basename(file)}: ${cause.code}, ${DISK_FAILURES[cause.code ?? ''] ?? cause.message}), so the task stopped. ` +
        `Everything up to the last whole line is kept; ${full ? 'free some space' : 'fix the disk'} in ${path.dirname(path.dirname(file))}, then continue with xagent --resume ${sessionId} (or --continue).`,
      { cause },
    );
    this.code = full ? 'SESSION_DISK_FULL' : 'SESSION_WRITE_FAILED';
  }
}
