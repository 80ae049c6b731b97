import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';
import { transcriptPath, TRACE_FILE } from '../sessions/layout.js';
import { openSessionWriter } from '../sessions/session-writer.js';
import { healTornTail } from '../sessions/jsonl.js';
import type { RewindRecordBody } from '../sessions/records.js';
import { appendCheckpointLine, readCheckpointLog, type CheckpointLine } from './checkpoint-log.js';
import { faultPoint } from './fault.js';
import { journalPath } from './files.js';
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
export function runJournal(sessionDir: string, journal: Journal, contents: (sha256: string) => Buffer): void {
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
    mkdirSync(dir);
  }
  for (const item of journal.files) {
    if (item.action !== 'write') continue;
    faultPoint();
    writeNewFileSync(item.aside, contents(item.sha256), item.mode);
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
    if (item.action === 'delete') rmSync(item.file, { force: true });
    // Gone already: renamed by the run that crashed.
    else if (existsSync(item.aside)) renameSync(item.aside, item.file);
  }
  if (journal.transcript && existsSync(journal.transcript.aside)) {
    faultPoint();
    renameSync(journal.transcript.aside, transcriptPath(sessionDir));
  }
  if (!readCheckpointLog(sessionDir).some((line) => line.kind === 'rewind' && line.id === journal.id)) {
    faultPoint();
    appendCheckpointLine(sessionDir, journal.line);
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
  for (const item of journal.files) if (item.action === 'write') rmSync(item.aside, { force: true });
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
