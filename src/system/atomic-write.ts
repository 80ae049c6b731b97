import { constants } from 'node:fs';
import { open, rename as fsRename, stat, unlink } from 'node:fs/promises';
import { tempPathFor } from './atomic-write-sync.js';
import { assertOpenedAt, pathOfDescriptor } from './handle-path.js';

export interface AtomicWriteOptions {
  /** A new file's mode (default 0o666, less the umask); an existing file always keeps its own. */
  mode?: number;
  /** Replaces `fs.rename`; tests inject a failing one to prove the original survives. */
  rename?: (from: string, to: string) => Promise<void>;
}

/** Signature shared by everything that writes a whole file, so tests can swap the writer. */
export type WriteFileAtomic = (target: string, content: string, options?: AtomicWriteOptions) => Promise<number>;

/**
 * The one atomic writer (its synchronous twin is atomic-write-sync.ts): the data goes to a
 * temporary file in the same folder (same file system, so the rename is atomic), is flushed, then
 * renamed over the target, so a reader or a process killed half-way sees the old file or the new
 * one, never a mix. An existing file keeps its mode. On any failure the temporary file is removed
 * and the error is rethrown. Returns the number of bytes written.
 * @example await writeFileAtomic('/repo/src/a.ts', 'export {};\n');
 * @example await writeFileAtomic(metaPath, '{"schema_version":1}\n', { mode: 0o600 });
 */
export async function writeFileAtomic(target: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<number> {
  const rename = options.rename ?? fsRename;
  const temp = tempPathFor(target);
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  let createdAt = temp;
  try {
    // O_EXCL never follows a final link; the descriptor's own path tells whether a folder on the
    // way was swapped for a link after the path was checked (then nothing is written there).
    const handle = await open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode ?? options.mode ?? 0o666,
    );
    try {
      createdAt = pathOfDescriptor(handle.fd) ?? temp;
      assertOpenedAt(handle.fd, temp);
      await handle.writeFile(data);
      await handle.sync();
      // open() applies the umask; an existing file's mode is restored exactly (on the descriptor, not a path).
      if (mode !== undefined) await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    // Where the temporary file really is: by its path, it could now be a link to somewhere else.
    await unlink(createdAt).catch(() => undefined);
    throw error;
  }
  return data.length;
}
