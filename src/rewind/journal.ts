import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';
import { transcriptPath, TRACE_FILE } from '../sessions/layout.js';
import { openSessionWriter } from '../sessions/session-writer.js';
import { healTornTail } from '../sessions/jsonl.js';
import type { RewindRecordBody } from '../sessions/records.js';
import { readMeta } from '../sessions/meta.js';
import { isInside } from '../tools/workspace.js';
import { badPath, BLOB_NAME } from './checkpoint-line-check.js';
import { appendRewindLine, readCheckpointLog, type CheckpointLine } from './checkpoint-log.js';
import { faultPoint } from './fault.js';
import { asidePath, journalPath } from './files.js';
import { inParentOf, realOrNull } from './pinned-parent.js';
import { writeNewFileSync } from './write-aside.js';
import { transcriptPrefix } from './conversation.js';
import { RewindError } from './rewind-error.js';

/**
 * A rewind under way, written to the session folder before anything changes. It makes the rewind
 * survive kill -9: while `staging`, the new contents are being written aside (nothing the user
 * sees has changed; recovery removes them: the old state); once `committed`, every new content is
 * on disk and recovery finishes the renames (the new state). Never a mix once the session is opened.
 */
export interface Journal {
  v: 1;
  id: string;
  session_id: string;
  state: 'staging' | 'committed';
  /** Folders the staging creates (parents of files to bring back), outermost first: removed again on rollback. */
  dirs: string[];
  files: Array<{ file: string; action: 'write'; aside: string; mode: number; sha256: string } | { file: string; action: 'delete' }>;
  /** The conversation half: the cut transcript written aside, and where the whole one is kept. */
  transcript: { aside: string; bytes: number; archive: string } | null;
  /** The lines that say the rewind happened: the checkpoint log's and the evidence log's. */
  line: CheckpointLine;
  record: RewindRecordBody;
}

const writeJournal = (sessionDir: string, journal: Journal) => writeFileAtomicSync(journalPath(sessionDir), `${JSON.stringify(journal)}\n`);

/**
 * Stages and commits a rewind, then finishes it: see `Journal`. `contents(sha256)` gives a
 * written file's bytes (from the blob store).
 */
export function runJournal(sessionDir: string, journal: Journal, contents: (sha256: string) => Buffer, workspace: string | null): void {
  const why = journalProblem(journal, workspace);
  if (why) throw new RewindError('REWIND_FAILED', `not rewound: ${why}; nothing was changed`);
  try {
    faultPoint();
    writeJournal(sessionDir, { ...journal, state: 'staging' });
    stage(sessionDir, journal, contents);
    faultPoint();
    // The commit point: from here on the rewind happens, whatever stops this process.
    writeJournal(sessionDir, { ...journal, state: 'committed' });
  } catch (error) {
    rollBack(sessionDir, journal);
    throw new RewindError('REWIND_FAILED', `not rewound: ${reason(error)}; nothing was changed`);
  }
  try {
    finish(sessionDir, { ...journal, state: 'committed' });
  } catch (error) {
    throw new RewindError(
      'REWIND_FAILED',
      `the rewind could not finish: ${reason(error)}; it is kept in ${path.basename(journalPath(sessionDir))} and finished the next time the session is opened (xagent --resume, or xagent rewind again)`,
    );
  }
}

/** Writes every new content aside: nothing the user sees changes yet. */
function stage(sessionDir: string, journal: Journal, contents: (sha256: string) => Buffer): void {
  for (const dir of journal.dirs) {
    faultPoint();
    inParentOf(dir, (at) => mkdirSync(at));
  }
  for (const item of journal.files) {
    if (item.action !== 'write') continue;
    faultPoint();
    const bytes = contents(item.sha256);
    inParentOf(item.aside, (at) => writeNewFileSync(at, bytes, item.mode));
  }
  if (journal.transcript) {
    const { aside, bytes, archive } = journal.transcript;
    faultPoint();
    mkdirSync(path.dirname(archive), { recursive: true });
    copyFileSync(transcriptPath(sessionDir), archive);
    faultPoint();
    writeNewFileSync(aside, transcriptPrefix(sessionDir, bytes), 0o600);
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Puts every staged content in place and writes the rewind's records; safe to run again after a crash. */
function finish(sessionDir: string, journal: Journal): void {
  for (const item of journal.files) {
    faultPoint();
    // Each through its pinned folder: a folder swapped for a link since the plan is refused, not followed.
    if (item.action === 'delete') {
      if (existsSync(path.dirname(item.file))) inParentOf(item.file, (at) => rmSync(at, { force: true }));
    }
    // Gone already: renamed by the run that crashed.
    else if (existsSync(item.aside)) inParentOf(item.file, (at) => renameSync(path.join(path.dirname(at), path.basename(item.aside)), at));
  }
  if (journal.transcript && existsSync(journal.transcript.aside)) {
    faultPoint();
    renameSync(journal.transcript.aside, transcriptPath(sessionDir));
  }
  if (!readCheckpointLog(sessionDir).some((line) => line.kind === 'rewind' && line.id === journal.id)) {
    faultPoint();
    appendRewindLine(sessionDir, journal.line);
  }
  if (!traceHas(sessionDir, journal.id)) {
    faultPoint();
    healTornTail(path.join(sessionDir, TRACE_FILE));
    const sink = openSessionWriter(sessionDir, journal.session_id);
    try {
      sink.record(journal.record, journal.line.ts);
    } finally {
      sink.close();
    }
  }
  faultPoint();
  rmSync(journalPath(sessionDir), { force: true });
}

/** Throws away a rewind that never committed: the workspace and the session stay as they were. */
function rollBack(sessionDir: string, journal: Journal): void {
  for (const item of journal.files) {
    if (item.action !== 'write' || !existsSync(path.dirname(item.aside))) continue;
    try {
      inParentOf(item.aside, (at) => rmSync(at, { force: true }));
    } catch {
      // Its folder is a link now: what is there is not ours to delete.
    }
  }
  if (journal.transcript) {
    rmSync(journal.transcript.aside, { force: true });
    rmSync(journal.transcript.archive, { force: true });
  }
  for (const dir of [...journal.dirs].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty (someone put a file there) or already gone: leave it.
    }
  }
  rmSync(journalPath(sessionDir), { force: true });
}

/**
 * Finishes or undoes a rewind that a crash interrupted; call with the session's lock held, before
 * reading its transcript. Returns what it did, for a warning, or null when nothing was pending.
 * @example const note = recoverRewind(dir); if (note) warnings.push(note);
 */
export function recoverRewind(sessionDir: string): string | null {
  const file = journalPath(sessionDir);
  if (!existsSync(file)) return null;
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(file, 'utf8')) as Journal;
  } catch {
    // Written atomically, so never torn; unreadable means someone edited it: keep it for a person to look at.
    renameSync(file, `${file}.unreadable`);
    return `an interrupted rewind's journal could not be read; it is kept as ${path.basename(file)}.unreadable`;
  }
  const meta = readMeta(sessionDir);
  const why = journalProblem(journal, meta.kind === 'ok' ? meta.meta.workspace : null);
  if (why) {
    renameSync(file, `${file}.unreadable`);
    return `an interrupted rewind's journal was refused (${why}); it is kept as ${path.basename(file)}.unreadable`;
  }
  if (journal.state === 'committed') {
    try {
      finish(sessionDir, journal);
    } catch (error) {
      throw new RewindError(
        'REWIND_FAILED',
        `an interrupted rewind (${journal.id}) could not be finished: ${reason(error)}; fix that and open the session again`,
      );
    }
    return `an interrupted rewind (${journal.id}) was finished`;
  }
  rollBack(sessionDir, journal);
  return `an interrupted rewind (${journal.id}) was undone before it changed anything`;
}

function traceHas(sessionDir: string, id: string): boolean {
  const trace = path.join(sessionDir, TRACE_FILE);
  return existsSync(trace) && readFileSync(trace, 'utf8').includes(`"rewind_id":"${id}"`);
}

/**
 * Why a journal is not one this code writes for `workspace`, or null: every path absolute,
 * normalised and inside the workspace, each aside the one named for its file, blob names SHA-256.
 * A journal read back from disk is input like any other: a crafted one must not write elsewhere.
 */
function journalProblem(journal: Journal, workspace: string | null): string | null {
  if (typeof journal !== 'object' || journal === null || !Array.isArray(journal.files) || !Array.isArray(journal.dirs))
    return 'its journal is not an object with files and folders';
  if (typeof journal.id !== 'string' || !/^[0-9a-f-]{1,64}$/.test(journal.id)) return 'its journal has no valid id';
  const root = realOrNull(workspace);
  const inside = (file: unknown) => {
    const bad = badPath(file);
    if (bad) return `the journal ${bad}`;
    return root !== null && isInside(root, file as string) && file !== root
      ? null
      : `the journal names ${String(file)}, outside the workspace`;
  };
  for (const dir of journal.dirs) {
    const why = inside(dir);
    if (why) return why;
  }
  for (const item of journal.files) {
    const why = inside(item?.file);
    if (why) return why;
    if (item.action === 'write' && (item.aside !== asidePath(item.file, journal.id) || !BLOB_NAME.test(item.sha256)))
      return `the journal's staged copy of ${item.file} is not where xagent puts it`;
  }
  return null;
}
