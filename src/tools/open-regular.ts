import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { ToolResult } from '../../machines/types.js';
import { assertOpenedAt } from '../system/handle-path.js';
import { fail } from './result.js';

// Synchronous on purpose: each promise-based fs call is a round trip through libuv's thread pool
// (~40 µs of CPU), and a read_file made nine of them. These calls touch a regular file on a local
// disk; nothing here can block on a pipe or a device (see below).

/**
 * Opens a file the tools are about to read, refusing anything that is not a regular file. A FIFO
 * or a device would block a plain open or read forever (the process could not even exit), so the
 * file is opened non-blocking and checked again on the descriptor, which is what gets read; the
 * descriptor must also be at `absolute` (a real path), so a symlink swapped in meanwhile is refused.
 * The caller closes `fd` (closeSync).
 * @example const opened = openRegularFile(absolute, display); if ('result' in opened) return opened.result;
 */
export function openRegularFile(absolute: string, display: string): { fd: number; size: number } | { result: ToolResult } {
  const before = statSync(absolute);
  if (before.isDirectory()) return { result: fail(`${display} is a directory, use list_dir.`) };
  if (!before.isFile()) return { result: notRegular(display) };
  // O_NOFOLLOW and the descriptor's own path: a link swapped in after the path was resolved is refused.
  const fd = openSync(absolute, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    assertOpenedAt(fd, absolute);
    const info = fstatSync(fd);
    if (!info.isFile()) {
      closeSync(fd);
      return { result: notRegular(display) };
    }
    return { fd, size: info.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

export function notRegular(display: string): ToolResult {
  return fail(`${display} is not a regular file (a device, socket or pipe); refused.`);
}

/** Whether the opened file looks binary: a NUL byte in its first 8000 bytes, as git decides. */
export function looksBinary(fd: number): boolean {
  const buffer = Buffer.allocUnsafe(8000);
  const bytesRead = readSync(fd, buffer, 0, buffer.length, 0);
  return buffer.subarray(0, bytesRead).includes(0);
}
