import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import type { Message } from '../../machines/types.js';
import type { CompactionRecord } from './compaction-record.js';
import { isDiskFailure, SessionWriteError } from './disk-failure.js';
import { AUDIT_FILE, TRACE_FILE, TRANSCRIPT_FILE } from './layout.js';
import { RECORD_VERSION, transcriptRecord, type AuditRecord, type EvidenceBody, type EvidenceRecord } from './records.js';
import { lineGroups } from './line-groups.js';
import { traceLineOf } from './tool-outputs.js';

/** The agent that writes a line (query() sets it on every line): `main`, `main/task-1`. */
export type AgentField = { agent?: string };

/**
 * Sees each evidence line as it is written, as the stamped record: a listener that sends it on
 * serializes what it sends itself (the inspector, once per batch), so a run with no session file
 * serializes nothing for it. The record is the log's own: read it, never change it.
 */
export type EvidenceListener = (record: EvidenceRecord) => void;

/**
 * Where one task's evidence goes, appended record by record as it happens. query() writes only
 * through this: the trace (the ordered evidence log), the transcript and the audit.
 */
export interface SessionSink {
  readonly dir: string | null;
  readonly tracePath: string | null;
  /**
   * Appends one line to the evidence log: stamps it (`v`, the task's next `seq`, `ts`, `session_id`,
   * and `agent` when given, after the body's fields), writes it, and hands it to every listener.
   * Returns the stamped record.
   */
  record<B extends EvidenceBody>(body: B & AgentField, ts: string, agent?: string): B & EvidenceRecord;
  /** Calls `listener` with every line recorded from now on; returns the unsubscribe. */
  listen(listener: EvidenceListener): () => void;
  message(message: Message): void;
  /** Marks a compaction in the transcript (the messages before it stay in the file). */
  compaction(record: Omit<CompactionRecord, 'v'>): void;
  audit(record: Omit<AuditRecord, 'v'>): void;
  close(): void;
}

/** The stamping and fan-out every sink shares; `write` persists a trace line (absent: nothing is kept). */
function evidenceLog(sessionId: string, write?: (line: string) => void) {
  const listeners = new Set<EvidenceListener>();
  let seq = 0;
  return {
    record<B extends EvidenceBody>(body: B & AgentField, ts: string, agent?: string): B & EvidenceRecord {
      // One object a line (a round writes about ten): the agent is set on the stamped copy, not spread in first.
      const record = { v: RECORD_VERSION, seq: seq++, ts, session_id: sessionId, ...body } as B & EvidenceRecord;
      if (agent !== undefined) record.agent = agent;
      // Serialized for the file only: listeners get the object (with any tool output), and a run with no file serializes nothing.
      if (write) write(JSON.stringify(traceLineOf(record)));
      for (const listener of listeners) listener(record);
      return record;
    },
    listen(listener: EvidenceListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Appends trace.jsonl, transcript.jsonl and audit.jsonl in `dir` for one task. The lines written
 * in one stretch of synchronous work (a round's transitions) leave together at its end, one
 * write(2) per file on a descriptor opened for that write (line-groups.ts): a task holds no file
 * open between writes, and a crash tears at most the last line, as with a write per line.
 * @example const sink = openSessionWriter(sessionDir(home, id), id); for await (const e of query(p, { ...options, session: sink }));
 */
export function openSessionWriter(
  dir: string,
  sessionId: string,
  options: {
    /**
     * Told once when the disk refuses a line (ENOSPC, EIO...: disk-failure.ts): nothing more is
     * written (a torn last line at most, healed on resume, never a hole) and the caller stops the
     * task. Absent, or for other failures (a removed folder), a warning on stderr and the task goes on.
     */
    onFailure?: (error: SessionWriteError) => void;
  } = {},
): SessionSink {
  mkdirSync(dir, { recursive: true });
  let warned = false;
  let failed = false;
  const files = lineGroups((file, error) => {
    if (options.onFailure && isDiskFailure(error)) {
      if (failed) return;
      failed = true;
      options.onFailure(new SessionWriteError(file, error, sessionId));
      return;
    }
    if (warned) return;
    warned = true;
    process.stderr.write(`xagent: warning: session ${sessionId}: ${path.basename(file)} not written (${error.code ?? error.message})\n`);
  });
  const trace = path.join(dir, TRACE_FILE);
  const transcript = path.join(dir, TRANSCRIPT_FILE);
  const auditFile = path.join(dir, AUDIT_FILE);
  // The three files exist from the start, as readers expect, even when a task writes no audit line.
  for (const file of [trace, transcript, auditFile]) touch(file);
  let closed = false;
  const writeLine = (file: string, line: string) => {
    if (!closed && !failed) files.append(file, line);
  };
  const append = (file: string, value: object) => writeLine(file, JSON.stringify(value));
  const log = evidenceLog(sessionId, (line) => writeLine(trace, line));
  return {
    dir,
    tracePath: trace,
    record: log.record,
    listen: log.listen,
    message: (message) => append(transcript, transcriptRecord(message)),
    compaction: (record) => append(transcript, { v: RECORD_VERSION, ...record }),
    audit: (record) => append(auditFile, { v: RECORD_VERSION, ...record }),
    close: () => {
      if (closed) return;
      closed = true;
      // What is still queued is on disk before the result is handed out (and before the session's next writer).
      files.flush();
    },
  };
}

/** Creates `file` if it is missing; out of descriptors, its first line will create it. */
function touch(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'a');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EMFILE' || code === 'ENFILE') return;
    throw error;
  }
  closeSync(fd);
}

/** For benchmarks and embedders that keep no record: the log is stamped and fanned out, nothing is written. */
export function noSessionRecord(sessionId: string): SessionSink {
  const log = evidenceLog(sessionId);
  return {
    dir: null,
    tracePath: null,
    record: log.record,
    listen: log.listen,
    message: () => undefined,
    compaction: () => undefined,
    audit: () => undefined,
    close: () => undefined,
  };
}
