import { appendFileSync, mkdirSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Appends `value` as one JSON line to a session file that is not one of the task's three logs
 * (the rewind checkpoint log): one write(2) on an O_APPEND descriptor, so a crash tears at most
 * this line, which readers skip. Without blocking the event loop: it runs on the tool path.
 * @example await appendJsonLine(path.join(sessionDir, 'checkpoints', 'log.jsonl'), line);
 */
export async function appendJsonLine(file: string, value: object): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(value)}\n`, { mode: 0o600 });
}

/** The same line, synchronously: for a rewind's own record, written under the session's lock where the next step needs it. */
export function appendJsonLineSync(file: string, value: object): void {
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(value)}\n`, { mode: 0o600 });
}
