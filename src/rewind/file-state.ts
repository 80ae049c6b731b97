import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';

/**
 * What a path held at one moment: nothing, a regular file (its content hash, size and permission
 * bits), or something a file tool never writes (a folder, a link), which a rewind leaves alone.
 */
export type FileState = { kind: 'absent' } | { kind: 'file'; sha256: string; size: number; mode: number } | { kind: 'other' };

export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The state of `file` now, with its bytes when it is a regular file no larger than `maxBytes`
 * (the caller keeps them); a larger one is hashed but its bytes are not returned.
 * @example const { state, bytes } = await readFileState('/repo/a.txt', 1 << 20);
 */
export async function readFileState(
  file: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<{ state: FileState; bytes: Buffer | null }> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return { state: { kind: 'absent' }, bytes: null };
    throw error;
  }
  if (!info.isFile()) return { state: { kind: 'other' }, bytes: null };
  const bytes = await readFile(file);
  const state: FileState = { kind: 'file', sha256: sha256Of(bytes), size: bytes.length, mode: info.mode & 0o7777 };
  return { state, bytes: bytes.length <= maxBytes ? bytes : null };
}

/** Same content and permission bits (or both absent). */
export function sameState(a: FileState, b: FileState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.sha256 === b.sha256 && a.mode === b.mode;
  return true;
}
