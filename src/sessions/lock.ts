import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { SessionError } from './errors.js';
import { pidAlive } from './meta.js';

export const LOCK_FILE = 'lock';

/** An empty or unreadable lock younger than this may be another version's lock being written. */
const UNREADABLE_GRACE_MS = 10_000;

/**
 * Takes `<dir>/lock` for this process, so two processes never append to one session's files at
 * once. The lock appears with its content in one step (written to a private file, then link(2),
 * which fails if the lock exists), so nobody ever reads a half-made lock. A lock left by a
 * process that died (kill -9) is taken over: it is renamed aside first and removed only if it is
 * still the very file judged stale, so two processes taking over together cannot both win.
 * Limit: a dead holder's pid reused by an unrelated live process looks like a live holder; the
 * error message says which file to delete.
 * @example const release = acquireSessionLock(dir); try { ... } finally { release(); }
 */
export function acquireSessionLock(dir: string, id: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  const mine = path.join(dir, `${LOCK_FILE}.${process.pid}.${Date.now()}`);
  writePrivate(mine, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, file);
        return () => {
          if (holder(file)?.pid === process.pid) rmSync(file, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const current = holder(file);
      if (current === undefined) continue; // gone meanwhile: try again
      const stale = current === null ? olderThan(file, UNREADABLE_GRACE_MS) : current.pid !== process.pid && !pidAlive(current.pid);
      if (!stale) {
        const who = current === null ? 'another xagent process (its lock is being written)' : `another xagent process (pid ${current.pid})`;
        throw new SessionError('SESSION_IN_USE', `session ${id} is in use by ${who}; if none is running, delete ${file}`);
      }
      takeOver(file, current === null ? null : current.ino, `${mine}.stale`);
    }
  } finally {
    rmSync(mine, { force: true });
  }
  throw new SessionError('SESSION_IN_USE', `session ${id} is being opened by another xagent process at the same moment`);
}

function writePrivate(file: string, text: string): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Moves the stale lock aside; if what moved is not the file judged stale, puts it back. */
function takeOver(file: string, staleIno: number | null, aside: string): void {
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = holder(aside);
  if (staleIno !== null && moved?.ino !== staleIno) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone else holds a newer lock already; the moved one was theirs before, nothing to restore.
    }
  }
  rmSync(aside, { force: true });
}

/** The lock's holder and inode; null when unreadable, undefined when there is no lock. */
function holder(file: string): { pid: number; ino: number } | null | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return null;
  }
  try {
    const ino = fstatSync(fd).ino;
    const pid = (JSON.parse(readFileSync(fd, 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) ? { pid, ino } : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function olderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs > ms;
  } catch {
    return true;
  }
}
