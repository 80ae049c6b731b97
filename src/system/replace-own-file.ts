import { close, constants, fsync, open, rename, unlink, write } from 'node:fs';
import { tempPathFor } from './atomic-write-sync.js';

/**
 * Replaces a small file that only xagent writes, in a folder of its own (a session's meta.json and
 * secrets.json): written to a temporary file beside it and renamed over it, so a reader, or a
 * process killed half-way, sees the old file or the new one, never a mix. Unlike writeFileAtomic
 * (workspace files) it keeps no existing mode and checks no folder on the way for links, and it
 * flushes to the disk only when `durable`: without it an operating-system crash may leave the old
 * content or an empty file, which is fine for a file derived from others (meta.json is rebuilt from
 * the transcript). On Node's callbacks, not promises and a FileHandle: about a fifth of
 * writeFileAtomic's CPU, which a thousand tasks starting at once pay two or three times each.
 * Rejects with the failure, the temporary file removed.
 * @example await replaceOwnFile(path.join(dir, 'meta.json'), text);
 * @example await replaceOwnFile(path.join(dir, 'secrets.json'), text, { durable: true });
 */
export function replaceOwnFile(target: string, content: string, options: { mode?: number; durable?: boolean } = {}): Promise<void> {
  const temp = tempPathFor(target);
  const data = Buffer.from(content, 'utf8');
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => unlink(temp, () => reject(error));
    // O_EXCL never follows a final link, and never reuses a file someone else made.
    open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, options.mode ?? 0o600, (opened, fd) => {
      if (opened) return reject(opened);
      const closeThen = (error: Error | null) =>
        close(fd, (closed) => {
          const failure = error ?? closed;
          if (failure) return fail(failure);
          rename(temp, target, (renamed) => (renamed ? fail(renamed) : resolve()));
        });
      const writeFrom = (offset: number): void =>
        write(fd, data, offset, data.length - offset, null, (error, written) => {
          if (error) return closeThen(error);
          if (offset + written < data.length) return writeFrom(offset + written);
          if (options.durable) fsync(fd, closeThen);
          else closeThen(null);
        });
      writeFrom(0);
    });
  });
}
