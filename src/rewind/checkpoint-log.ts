import { appendJsonLine, appendJsonLineSync } from '../sessions/append-line.js';
import { readJsonLines } from '../sessions/jsonl.js';
import { invalidLine } from './checkpoint-line-check.js';
import type { FileState } from './file-state.js';
import { checkpointLogPath } from './files.js';
import { RewindError } from './rewind-error.js';

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

/** A file tool's change, appended through the session layer without blocking the tool path. */
export function appendCheckpointLine(sessionDir: string, line: CheckpointLine): Promise<void> {
  return appendJsonLine(checkpointLogPath(sessionDir), line);
}

/** A rewind's own line, written synchronously by its journal (under the session's lock). */
export function appendRewindLine(sessionDir: string, line: CheckpointLine): void {
  appendJsonLineSync(checkpointLogPath(sessionDir), line);
}

/**
 * Every usable line, in order; torn, unparsable or newer lines are skipped (a crash tears at most
 * the last one). A line of this version that parses but does not hold what xagent writes (a path
 * with `..`, a relative path, a blob name that is not a SHA-256) was not written by xagent: the
 * whole log is refused (REWIND_LOG_INVALID), since following it could write anywhere.
 */
export function readCheckpointLog(sessionDir: string): CheckpointLine[] {
  const lines: CheckpointLine[] = [];
  for (const { line: number, value } of readJsonLines(checkpointLogPath(sessionDir)).values) {
    if (typeof value !== 'object' || value === null || (value as { v?: unknown }).v !== CHECKPOINT_LOG_VERSION) continue;
    const why = invalidLine(value);
    if (why) {
      throw new RewindError(
        'REWIND_LOG_INVALID',
        `the session's checkpoint log is refused: line ${number} ${why}, which xagent never writes; nothing was changed`,
      );
    }
    lines.push(value as CheckpointLine);
  }
  return lines;
}

/** Each change a line stands for (a rewind's restores are changes too). */
export function changesOf(line: CheckpointLine): FileChange[] {
  return line.kind === 'change' ? [line] : line.changes;
}
