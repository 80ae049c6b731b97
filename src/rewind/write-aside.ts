import { closeSync, fchmodSync, fsyncSync, openSync, writeSync } from 'node:fs';

/**
 * Writes `bytes` to a file that did not exist (`wx`), with exactly `mode` (set on the descriptor,
 * so the umask does not change it), flushed to disk. The building block of every rewind write.
 */
export function writeNewFileSync(file: string, bytes: Buffer, mode: number): void {
  const fd = openSync(file, 'wx', mode);
  try {
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    // On the descriptor `wx` opened, not on a path that could have been swapped meanwhile.
    fchmodSync(fd, mode);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
