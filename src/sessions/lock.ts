import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { SessionError } from './errors.js';
import { pidAlive } from './meta.js';

export const LOCK_FILE = 'lock';

/**
 * Takes `<dir>/lock` for this process, so two processes never append to one session's files at
 * once. A lock left by a process that died (kill -9) is taken over. Returns the release function.
 * Limit: a dead holder's pid reused by an unrelated live process looks like a live holder; the
 * error message says which file to delete.
 * @example const release = acquireSessionLock(dir); try { ... } finally { release(); }
 */
export function acquireSessionLock(dir: string, id: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      closeSync(fd);
      return () => {
        if (holder(file) === process.pid) rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = holder(file);
      if (pid !== null && pid !== process.pid && pidAlive(pid)) {
        throw new SessionError(
          'SESSION_IN_USE',
          `session ${id} is in use by another xagent process (pid ${pid}); if none is running, delete ${file}`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new SessionError('SESSION_IN_USE', `session ${id} is being opened by another xagent process at the same moment`);
}

function holder(file: string): number | null {
  try {
    const pid = (JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) ? pid : null;
  } catch {
    return null;
  }
}
