import { statSync } from 'node:fs';
import path from 'node:path';
import { transcriptPath } from '../sessions/layout.js';
import type { FileCheckpoints } from '../tools/types.js';
import { BlobStore, checkpointCap } from './blob-store.js';
import { appendCheckpointLine, CHECKPOINT_LOG_VERSION } from './checkpoint-log.js';
import { readFileState } from './file-state.js';

/**
 * The checkpoints of one session's file tools: before write_file or edit_file changes a file, its
 * bytes and mode (or its absence) go to the session's blob store; once the write is done, one line
 * of the checkpoint log says what the file held before and after. A file over the session's cap is
 * not kept, and the tool's result says so. Never throws: a checkpoint that fails is a note.
 * @example const checkpoints = sessionCheckpoints(sessionDir(home, id)); await tools.execute(call, { signal, workspace, checkpoints });
 */
export function sessionCheckpoints(sessionDir: string, env: NodeJS.ProcessEnv = process.env): FileCheckpoints {
  const store = new BlobStore(sessionDir, checkpointCap(env));
  return {
    async before(absolute) {
      const name = path.basename(absolute);
      let before: Awaited<ReturnType<typeof readFileState>>;
      let kept = true;
      let note: string | null = null;
      try {
        before = await readFileState(absolute);
        if (before.state.kind === 'file' && before.bytes) {
          if (store.fits(before.state.sha256, before.bytes.length)) store.put(before.state.sha256, before.bytes);
          else {
            kept = false;
            note = `(Not checkpointed: ${name} is ${mb(before.state.size)}, more than this session keeps for rewind (${mb(store.cap)} in all); a rewind cannot restore its earlier content.)`;
          }
        }
      } catch (error) {
        return { note: `(Not checkpointed: ${reason(error)}; a rewind cannot restore ${name}.)`, after: async () => undefined };
      }
      return {
        note,
        async after() {
          try {
            const after = await readFileState(absolute, 0);
            await appendCheckpointLine(sessionDir, {
              v: CHECKPOINT_LOG_VERSION,
              kind: 'change',
              ts: new Date().toISOString(),
              transcript_bytes: transcriptSize(sessionDir),
              file: absolute,
              before: before.state,
              after: after.state,
              kept,
            });
          } catch {
            // The file is written; only its record is missing, so a rewind treats it like a change made by hand.
          }
        },
      };
    },
  };
}

/** The transcript's size now: where the conversation stands when a change is made. */
export function transcriptSize(sessionDir: string): number {
  try {
    return statSync(transcriptPath(sessionDir)).size;
  } catch {
    return 0;
  }
}

const mb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
