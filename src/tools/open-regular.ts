import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import type { ToolResult } from '../../machines/types.js';
import { fail } from './result.js';

/**
 * Opens a file the tools are about to read, refusing anything that is not a regular file. A FIFO
 * or a device would block a plain open or read forever (the process could not even exit), so the
 * file is opened non-blocking and checked again on the descriptor, which is what gets read.
 * @example const opened = await openRegularFile(absolute, display); if ('result' in opened) return opened.result;
 */
export async function openRegularFile(
  absolute: string,
  display: string,
): Promise<{ handle: FileHandle; size: number } | { result: ToolResult }> {
  const before = await stat(absolute);
  if (before.isDirectory()) return { result: fail(`${display} is a directory, use list_dir.`) };
  if (!before.isFile()) return { result: notRegular(display) };
  const handle = await open(absolute, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return { result: notRegular(display) };
    }
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export function notRegular(display: string): ToolResult {
  return fail(`${display} is not a regular file (a device, socket or pipe); refused.`);
}

/** Whether the opened file looks binary: a NUL byte in its first 8000 bytes, as git decides. */
export async function handleLooksBinary(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(8000);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  return buffer.subarray(0, bytesRead).includes(0);
}
