import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { readJsonLines } from '../sessions/jsonl.js';
import type { FileState } from './file-state.js';
import { checkpointLogPath } from './files.js';

/** The format of checkpoints/log.jsonl; a line of a newer version is skipped, never guessed at. */
export const CHECKPOINT_LOG_VERSION = 1;

/** One path's change: what it held before and after. `kept`: the before-bytes are in the blob store. */
export interface FileChange {
  file: string;
  before: FileState;
  after: FileState;
  /** False when the before-bytes were not kept (too large for the session's cap): a rewind cannot restore them. */
  kept: boolean;
}

/**
 * A line of the checkpoint log, in the order things happened. `transcript_bytes` is the size of
 * transcript.jsonl when the line was written: it tells which user message the change came after
 * (see `changesSince`), with no id to keep in step with the transcript.
 */
export type CheckpointLine =
  | ({ v: number; kind: 'change'; ts: string; transcript_bytes: number } & FileChange)
  | {
      v: number;
      kind: 'rewind';
      ts: string;
      id: string;
      /** The transcript's size after the rewind (cut to the message, or unchanged for a code-only rewind). */
      transcript_bytes: number;
      changes: FileChange[];
    };

export function appendCheckpointLine(sessionDir: string, line: CheckpointLine): void {
  const file = checkpointLogPath(sessionDir);
  mkdirSync(path.dirname(file), { recursive: true });
  // One write(2) on an O_APPEND file: a crash tears at most this line, which the reader skips.
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** Every usable line, in order; torn, malformed or newer lines are skipped. */
export function readCheckpointLog(sessionDir: string): CheckpointLine[] {
  return readJsonLines(checkpointLogPath(sessionDir))
    .values.map(({ value }) => value as CheckpointLine)
    .filter((line) => typeof line === 'object' && line !== null && line.v === CHECKPOINT_LOG_VERSION);
}

/** Each change a line stands for (a rewind's restores are changes too). */
export function changesOf(line: CheckpointLine): FileChange[] {
  return line.kind === 'change' ? [line] : line.changes;
}
