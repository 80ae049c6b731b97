import path from 'node:path';
import { BLOB_NAME } from './checkpoint-line-check.js';
import { RewindError } from './rewind-error.js';

/**
 * Where rewind keeps its things inside a session folder. One owner: every other file of
 * src/rewind asks here instead of joining paths.
 *
 * ```
 * <session>/checkpoints/log.jsonl      one line per file change by write_file / edit_file, and per rewind
 * <session>/checkpoints/blobs/<sha256> a file's bytes before a change, stored once per distinct content
 * <session>/rewind-pending.json        a rewind under way (the journal that makes it survive kill -9)
 * <session>/rewound/<id>.transcript.jsonl  the transcript as it was before a rewind cut it
 * ```
 */
export const CHECKPOINT_LOG = 'log.jsonl';

export const checkpointsDir = (sessionDir: string) => path.join(sessionDir, 'checkpoints');
export const checkpointLogPath = (sessionDir: string) => path.join(checkpointsDir(sessionDir), CHECKPOINT_LOG);
export const blobsDir = (sessionDir: string) => path.join(checkpointsDir(sessionDir), 'blobs');
/** A blob's file; a name that is not a SHA-256 (`../`, a path) is refused, whoever asks. */
export function blobPath(sessionDir: string, sha256: string): string {
  if (!BLOB_NAME.test(sha256))
    throw new RewindError('REWIND_LOG_INVALID', `${JSON.stringify(sha256.slice(0, 100))} is not a checkpoint blob name; refused`);
  return path.join(blobsDir(sessionDir), sha256);
}
export const journalPath = (sessionDir: string) => path.join(sessionDir, 'rewind-pending.json');
export const rewoundDir = (sessionDir: string) => path.join(sessionDir, 'rewound');

/** A file written aside next to `target` (same folder, so the rename that puts it in place is atomic). */
export const asidePath = (target: string, rewindId: string) =>
  path.join(path.dirname(target), `.${path.basename(target)}.xagent-rewind-${rewindId}.tmp`);

/** Changes made by bash are not tracked: the sentence every place that offers a rewind shows. */
export const BASH_NOT_TRACKED =
  'Only changes made by write_file and edit_file are checkpointed; changes made by bash (rm, mv, scripts, builds) are not tracked and are not undone.';
