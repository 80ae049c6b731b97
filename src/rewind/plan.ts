import { changesOf, type CheckpointLine } from './checkpoint-log.js';
import { readFileState, sameState, type FileState } from './file-state.js';
import { outsideWhy } from './pinned-parent.js';

/** One file a code rewind looks at: what it holds now, what it held then, what xagent last left in it. */
export interface FilePlan {
  file: string;
  current: FileState;
  /** What it held when the message was sent. */
  target: FileState;
  /** What xagent's last change (a tool or a rewind) left in it: anything else was changed by someone else. */
  expected: FileState;
  /** The target's bytes are in the blob store (false: too large when checkpointed). */
  kept: boolean;
}

export interface CodePlan {
  /** Files to put back (write or delete). */
  restore: FilePlan[];
  /** Files that already hold what they held then. */
  unchanged: FilePlan[];
  /** Files changed outside xagent since its last change, which restoring would overwrite: asked about first. */
  conflicts: FilePlan[];
  /** Files whose earlier content was too large to keep: left as they are. */
  unrestorable: FilePlan[];
  /** Files outside the workspace now (a folder became a link, or the log says so): never written, never deleted. */
  outside: Array<FilePlan & { why: string }>;
}

/**
 * Each file changed after the transcript had `offset` bytes, with what it held before its first
 * such change. The transcript only grows between rewinds, and one that cuts it to below `offset`
 * removes the message there; so while the message at `offset` exists, every line written after
 * it has `transcript_bytes > offset`, and the first line at or below it was written before it.
 */
export function changesSince(log: readonly CheckpointLine[], offset: number): Map<string, { target: FileState; kept: boolean }> {
  let from = log.length;
  while (from > 0 && (log[from - 1]?.transcript_bytes ?? 0) > offset) from--;
  const targets = new Map<string, { target: FileState; kept: boolean }>();
  for (const line of log.slice(from)) {
    for (const change of changesOf(line)) {
      if (!targets.has(change.file))
        targets.set(change.file, { target: change.before, kept: change.kept || change.before.kind !== 'file' });
    }
  }
  return targets;
}

/** What xagent's last change left in each file it ever changed. */
export function expectedStates(log: readonly CheckpointLine[]): Map<string, FileState> {
  const expected = new Map<string, FileState>();
  for (const line of log) for (const change of changesOf(line)) expected.set(change.file, change.after);
  return expected;
}

/**
 * What a code rewind to the message at `offset` would do, file by file. A file outside the
 * `workspace` (a real path) is never touched, whatever the log says; its state is not even read.
 * Inside it, a file is a conflict only
 * when restoring it would overwrite content nobody can get back: it exists, and holds neither what
 * xagent left in it nor what the rewind would put there. A file deleted since is simply restored.
 */
export async function planCode(log: readonly CheckpointLine[], offset: number, workspace: string | null): Promise<CodePlan> {
  const expected = expectedStates(log);
  const plan: CodePlan = { restore: [], unchanged: [], conflicts: [], unrestorable: [], outside: [] };
  for (const [file, { target, kept }] of changesSince(log, offset)) {
    const why = outsideWhy(workspace, file);
    const current: FileState = why ? { kind: 'other' } : (await readFileState(file, 0)).state;
    const item: FilePlan = { file, current, target, expected: expected.get(file) ?? target, kept };
    if (why) plan.outside.push({ ...item, why });
    else if (target.kind === 'other' || sameState(current, target)) plan.unchanged.push(item);
    else if (!kept) plan.unrestorable.push(item);
    else if (current.kind !== 'absent' && !sameState(current, item.expected)) plan.conflicts.push(item);
    else plan.restore.push(item);
  }
  return plan;
}
