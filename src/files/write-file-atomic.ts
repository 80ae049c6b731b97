import { open, rename, rm } from 'node:fs/promises';
import { tempPathFor } from './write-file-atomic-sync.js';

/**
 * `writeFileAtomicSync` without blocking the event loop: the same temporary file (created with
 * `wx`, `mode` default 0o600), fsync, then rename over `target`, so a reader or a process killed
 * half-way sees the old file or the new one, never a mix. On failure the temporary file is
 * removed and the error rejects the promise.
 * @example await writeFileAtomic('/home/me/.xagent/sessions/abc/meta.json', '{"schema_version":1}\n');
 */
export async function writeFileAtomic(target: string, content: string, options: { mode?: number } = {}): Promise<void> {
  const temp = tempPathFor(target);
  try {
    const handle = await open(temp, 'wx', options.mode ?? 0o600);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
