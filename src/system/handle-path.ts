import { readlinkSync } from 'node:fs';
import { XagentError } from '../errors/xagent-error.js';

/**
 * Where an open descriptor really is, from the kernel (`/proc/self/fd/N` on Linux), or null where
 * that cannot be told (no /proc). A path is checked, then used: between the two another process
 * can swap a folder for a symlink. Checking the opened descriptor closes that gap: the file
 * tools open first, then ask the kernel where the file they hold is.
 * @example pathOfDescriptor(fd) // '/ws/src/a.ts'
 */
export function pathOfDescriptor(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/** The error a file tool reports when what it opened is not where it resolved the path to. */
export class MovedPathError extends XagentError {
  override readonly name = 'MovedPathError';
  override readonly fault = 'tool';
  readonly code = 'EXAGENTMOVED';
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`the path changed while it was being opened (a folder was replaced by a symbolic link?): expected ${expected}, got ${actual}`);
  }
}

/**
 * Throws MovedPathError unless the descriptor is the file at `expected` (a real path). Where the
 * kernel cannot say (no /proc), the O_NOFOLLOW open is the only guard.
 */
export function assertOpenedAt(fd: number, expected: string): void {
  const actual = pathOfDescriptor(fd);
  if (actual !== null && actual !== expected) throw new MovedPathError(expected, actual);
}
