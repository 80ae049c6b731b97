import { randomUUID } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Message, StopReason, Usage } from '../../machines/types.js';
import { addUsage } from '../../machines/engine-context.js';
import { addCost } from './usage-totals.js';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';
import { whenDescriptorsFree } from '../system/descriptors.js';
import { SessionError } from './errors.js';
import { healTornTail } from './jsonl.js';
import { acquireSessionLock } from './lock.js';
import { META_SCHEMA_VERSION, clipPrompt, readMeta, writeMetaAsync, type SessionMeta } from './meta.js';
import { pairingProblems, repairPairing } from './repair.js';
import { deriveMeta, latestSessionFor, resolveSessionId, sessionDir } from './store.js';
import { AUDIT_FILE, TRACE_FILE, TRANSCRIPT_FILE } from './layout.js';
import { RECORD_VERSION, transcriptRecord } from './records.js';
import { applyCompactionRecord, type CompactionRecord } from './compaction-record.js';
import { recordInterruption } from './interruption.js';
import { loadTranscript, recordedResults } from './transcript.js';

export interface OpenSessionOptions {
  /** XAGENT_HOME. */
  home: string;
  /** Absolute, real path of the workspace this run works in. */
  workspace: string;
  modelId?: string;
  /** A session id (or a unique prefix of one) to continue. */
  resume?: string;
  /** Continue the latest session recorded in `workspace`. */
  continue?: boolean;
  /**
   * Run with the session's lock held, before its conversation is read: finishes what a crash
   * interrupted (src/rewind's journal). Returns a warning, or null when there was nothing to do.
   */
  recover?: (dir: string) => string | null;
  /** The id of a new session, when the caller chose it (a durable task is keyed by it); default a random UUID. */
  newId?: string;
}

/** A session held open by this process: the conversation to pass to query(), and its metadata upkeep. */
export interface RunSession {
  sessionId: string;
  dir: string;
  /** The recorded conversation, repaired; pass it to query() as `messages` (appended to in place). */
  messages: Message[];
  isNew: boolean;
  /** For stderr: torn or skipped lines, repairs made, a different workspace. */
  warnings: string[];
  /**
   * Call before each task and await it before the task runs: meta.json says a task is running (and
   * who runs it). Asynchronous so the fsync does not block the start of the task (the model client loads meanwhile).
   */
  startTask(prompt: string): Promise<void>;
  /**
   * Call after each task with its result (after query() has appended to `messages`); startTask's
   * write must have ended. meta.json is written in the background, so its fsync never holds up
   * this or any other task of the process; the next startTask and `settled` wait for it.
   */
  endTask(result: { reason: StopReason; usage?: Usage; total_cost_usd?: number | null }): void;
  /** Resolves when meta.json's last write has ended; a failed write is a warning (meta.json is derived from the transcript). */
  settled(): Promise<void>;
  /**
   * A compaction between tasks (`/compact`): its record goes to the transcript and the summary
   * takes the place of what it replaces in `messages`.
   */
  compacted(record: Omit<CompactionRecord, 'v' | 'type' | 'ts' | 'kept'>): void;
  /** After an interrupted task: the partial answer and the interrupt marker, to `messages` and the transcript. */
  interrupted(partial: string): void;
  /** Lets other processes open the session again. */
  release(): void;
}

/**
 * Opens the session a run works in: a new one, the one `resume` names, or (with `continue`) the
 * latest in this workspace. A resumed transcript is healed first (a torn last line dropped, tool
 * calls left without results by a crash closed with "interrupted" results), and the repair is
 * written to the transcript, so the file stays the conversation as sent. Throws SessionError.
 * @example
 * const session = openSessionForRun({ home, workspace, resume: raw.resume, continue: raw.continue });
 * await session.startTask(prompt);
 * const result = await runOneTask(config, { prompt, sessionId: session.sessionId, messages: session.messages, ... });
 * session.endTask(result);
 * await session.settled();
 * session.release();
 */
export function openSessionForRun(options: OpenSessionOptions): RunSession {
  const { home, workspace } = options;
  if (options.resume !== undefined && options.continue) {
    throw new SessionError('SESSION_ID_INVALID', '--resume and --continue cannot be used together');
  }
  let id: string;
  let isNew = false;
  if (options.resume !== undefined) {
    id = resolveSessionId(home, options.resume);
  } else if (options.continue) {
    const latest = latestSessionFor(home, workspace);
    if (!latest) throw new SessionError('NO_SESSION_TO_CONTINUE', `no session to continue in ${workspace} (xagent sessions lists them)`);
    id = latest.id;
  } else {
    id = options.newId ?? randomUUID();
    isNew = true;
  }
  const dir = sessionDir(home, id);
  mkdirSync(dir, { recursive: true });

  let meta: SessionMeta | null = null;
  const read = readMeta(dir);
  if (read.kind === 'unsupported') {
    throw new SessionError(
      'SESSION_UNREADABLE',
      `session ${id} was recorded by a newer xagent (meta.json schema_version ${JSON.stringify(read.version)}); this one reads ${META_SCHEMA_VERSION}`,
    );
  }
  const warnings: string[] = [];
  if (read.kind === 'ok') meta = read.meta;
  else if (read.kind === 'malformed') warnings.push(`session ${id}: ${read.reason}; it will be rewritten`);

  const release = acquireSessionLock(dir, id);
  let messages: Message[] = [];
  try {
    // A rewind that kill -9 interrupted is finished (or undone) before the conversation is read.
    const recovered = isNew ? null : (options.recover?.(dir) ?? null);
    if (recovered) warnings.push(`session ${id}: ${recovered}`);
    if (!isNew) messages = healAndLoad(dir, id, warnings);
  } catch (error) {
    release();
    throw error;
  }
  meta ??= isNew ? null : deriveMeta(dir, id);
  if (meta?.workspace && meta.workspace !== workspace) {
    warnings.push(`session ${id} was recorded in ${meta.workspace}; this task runs in ${workspace}`);
  }

  const now = () => new Date().toISOString();
  let current: SessionMeta = meta ?? {
    schema_version: META_SCHEMA_VERSION,
    id,
    workspace,
    model: options.modelId ?? null,
    created: now(),
    updated: now(),
    first_prompt: '',
    turns: 0,
    tasks: 0,
    last_stop_reason: null,
    status: 'idle',
    pid: null,
  };
  const update = (changes: Partial<SessionMeta>): SessionMeta => {
    current = { ...current, ...changes, schema_version: META_SCHEMA_VERSION, updated: now() };
    return current;
  };
  // A task's start is written without blocking; its end (written at once) must not be overtaken by it.
  let starting: Promise<void> | null = null;
  let ending: Promise<void> = Promise.resolve();
  let released = false;
  return {
    sessionId: id,
    dir,
    messages,
    isNew,
    warnings,
    startTask: (prompt) => {
      const meta = update({
        workspace,
        model: options.modelId ?? current.model,
        first_prompt: current.first_prompt || clipPrompt(prompt),
        tasks: current.tasks + 1,
        status: 'running',
        pid: process.pid,
      });
      const write = async () => {
        try {
          await ending;
          await whenDescriptorsFree(() => writeMetaAsync(dir, meta));
        } finally {
          starting = null;
        }
      };
      starting = write();
      return starting;
    },
    // Counted from the conversation, so rounds of a task whose process died are counted too.
    endTask: (result) => {
      if (starting) throw new Error('endTask: await startTask first, so meta.json is written in order');
      const meta = update({
        turns: messages.filter((m) => m.role === 'assistant').length,
        last_stop_reason: result.reason,
        status: 'idle',
        pid: null,
        ...(result.usage ? { usage: addUsage(current.usage, result.usage) } : {}),
        ...(result.total_cost_usd !== undefined ? { total_cost_usd: addCost(current, result.total_cost_usd) } : {}),
      });
      const previous = ending;
      // A failed write leaves meta.json saying `running` with a pid that is gone: read as a task whose process died.
      ending = previous.then(() => whenDescriptorsFree(() => writeMetaAsync(dir, meta))).catch(() => undefined);
    },
    settled: () => ending,
    compacted: (fields) => {
      const record = { v: RECORD_VERSION, type: 'compaction' as const, ts: now(), ...fields, kept: messages.length - fields.removed };
      appendFileSync(path.join(dir, TRANSCRIPT_FILE), `${JSON.stringify(record)}\n`);
      applyCompactionRecord(messages, record);
    },
    interrupted: (partial) => recordInterruption({ dir, messages, partial }),
    release: () => {
      if (released) return;
      released = true;
      release();
    },
  };
}

/** Makes the session's files safe to append to and returns the conversation, repaired. */
function healAndLoad(dir: string, id: string, warnings: string[]): Message[] {
  for (const name of [TRANSCRIPT_FILE, TRACE_FILE, AUDIT_FILE]) {
    const healed = healTornTail(path.join(dir, name));
    if (healed) warnings.push(`session ${id}: ${name}: ${healed}, probably cut off when the process was killed`);
  }
  const loaded = loadTranscript(dir);
  for (const problem of loaded.problems) {
    warnings.push(`session ${id}: ${TRANSCRIPT_FILE} line ${problem.line} skipped (${problem.kind}: ${problem.detail})`);
  }
  const repair = repairPairing(loaded.messages, recordedResults(dir));
  for (const note of repair.notes) warnings.push(`session ${id}: ${note}`);
  const file = path.join(dir, TRANSCRIPT_FILE);
  if (repair.rewritten || loaded.problems.length > 0) {
    // Lines were skipped or results moved: rewrite the file as the conversation now stands, keeping the original.
    const backup = `${file}.${Date.now()}.orig`;
    copyFileSync(file, backup);
    writeFileAtomicSync(file, repair.messages.map((m) => `${JSON.stringify(transcriptRecord(m))}\n`).join(''));
    warnings.push(`session ${id}: ${TRANSCRIPT_FILE} rewritten; the original is kept as ${path.basename(backup)}`);
  } else if (repair.tail) {
    appendFileSync(file, `${JSON.stringify(transcriptRecord(repair.tail))}\n`);
  }
  for (const problem of pairingProblems(repair.messages)) warnings.push(`session ${id}: still invalid after repair: ${problem}`);
  return repair.messages;
}
