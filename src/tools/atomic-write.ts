import { randomBytes } from 'node:crypto';
import { chmod, open, rename as fsRename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** Replaces `fs.rename`; tests inject a failing one to prove the original survives. */
  rename?: (from: string, to: string) => Promise<void>;
}

/** Signature shared by the tools that write, so tests can swap the writer. */
export type WriteFileAtomic = (target: string, content: string, options?: AtomicWriteOptions) => Promise<number>;

/**
 * Writes `content` to `target` so that readers see either the old file or the new one, never a
 * half-written mix: the data goes to a temporary file in the same folder (same file system, so
 * the rename is atomic), is flushed, then renamed over the target. An existing file keeps its mode.
 * On any failure the temporary file is removed and the error is rethrown.
 * Returns the number of bytes written.
 * @example await writeFileAtomic('/repo/src/a.ts', 'export {};\n');
 */
export const writeFileAtomic: WriteFileAtomic = async (target, content, options = {}) => {
  const rename = options.rename ?? fsRename;
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const data = Buffer.from(content, 'utf8');
  try {
    const handle = await open(temp, 'wx', mode ?? 0o666);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask; an existing file's mode is restored exactly.
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return data.length;
};
