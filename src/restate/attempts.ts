import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { LOCK_FILE } from '../sessions/lock.js';

export const ATTEMPTS_DIR = 'attempts';

/**
 * A task started again (its worker died, or it woke up after waiting for an answer) replays from
 * the start: the engine writes the session's records again, the finished steps from the journal.
 * What an earlier attempt wrote on this machine is moved to `attempts/<n>/` first, kept as
 * evidence, so the session's own files are one whole run: trace.jsonl from task_start to result.
 * Returns the number of the attempt set aside, or null when there was none.
 */
export function setAsideEarlierAttempt(dir: string): number | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir).filter((name) => name !== ATTEMPTS_DIR && name !== LOCK_FILE && !name.startsWith(`${LOCK_FILE}.`));
  if (files.length === 0) return null;
  const root = path.join(dir, ATTEMPTS_DIR);
  mkdirSync(root, { recursive: true });
  const n = readdirSync(root).length + 1;
  const target = path.join(root, String(n));
  mkdirSync(target);
  for (const name of files) renameSync(path.join(dir, name), path.join(target, name));
  return n;
}
