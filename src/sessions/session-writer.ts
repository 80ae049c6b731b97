import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Message } from '../../machines/types.js';
import type { CompactionRecord } from './compaction-record.js';
import { isDiskFailure, SessionWriteError } from './disk-failure.js';
import { AUDIT_FILE, TRACE_FILE, TRANSCRIPT_FILE } from './layout.js';
import { RECORD_VERSION, transcriptRecord, type AuditRecord, type EvidenceBody, type EvidenceRecord } from './records.js';

/** The agent that writes a line (query() sets it on every line): `main`, `main/task-1`. */
export type AgentField = { agent?: string };

/** Sees each evidence line as it is written: the record, and its JSON (serialized once for the file and every reader). */
export type EvidenceListener = (record: EvidenceRecord, line: string) => void;

/**
 * Where one task's evidence goes, appended record by record as it happens. query() writes only
 * through this: the trace (the ordered evidence log), the transcript and the audit.
 */
export interface SessionSink {
  readonly dir: string | null;
  readonly tracePath: string | null;
  /**
   * Appends one line to the evidence log: stamps it (`v`, the task's next `seq`, `ts`, `session_id`),
   * writes it, and hands it to every listener. Returns the stamped record.
   */
  record<B extends EvidenceBody>(body: B & AgentField, ts: string): B & EvidenceRecord;
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
    record<B extends EvidenceBody>(body: B & AgentField, ts: string): B & EvidenceRecord {
      const record = { v: RECORD_VERSION, seq: seq++, ts, session_id: sessionId, ...body } as B & EvidenceRecord;
      // Serialized once for the file and every listener, and not at all when nobody reads it.
      if (!write && listeners.size === 0) return record;
      const line = JSON.stringify(record);
      write?.(line);
      for (const listener of listeners) listener(record, line);
      return record;
    },
    listen(listener: EvidenceListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Opens (appending) trace.jsonl, transcript.jsonl and audit.jsonl in `dir` for one task. Each
 * line is one write(2) to an O_APPEND descriptor, so a crash can tear at most the last line.
 * @example const sink = openSessionWriter(sessionDir(home, id), id); for await (const e of query(p, { ...options, session: sink }));
 */
export function openSessionWriter(
  dir: string,
  sessionId: string,
  options: {
    /**
     * Told once when the disk refuses a line (ENOSPC, EIO...): nothing more is written (a torn last
     * line at most, healed on resume) and the caller stops the task. Absent: the write throws it.
     */
    onFailure?: (error: SessionWriteError) => void;
  } = {},
): SessionSink {
  mkdirSync(dir, { recursive: true });
  const open = (name: string) => openSync(path.join(dir, name), 'a');
  const fds = { trace: open(TRACE_FILE), transcript: open(TRANSCRIPT_FILE), audit: open(AUDIT_FILE) };
  let closed = false;
  let failed = false;
  const writeLine = (fd: number, name: string, line: string) => {
    if (closed || failed) return;
    try {
      writeSync(fd, `${line}\n`);
    } catch (error) {
      if (!isDiskFailure(error)) throw error;
      failed = true;
      const failure = new SessionWriteError(path.join(dir, name), error, sessionId);
      if (!options.onFailure) throw failure;
      options.onFailure(failure);
    }
  };
  const append = (fd: number, name: string, value: object) => writeLine(fd, name, JSON.stringify(value));
  const log = evidenceLog(sessionId, (line) => writeLine(fds.trace, TRACE_FILE, line));
  return {
    dir,
    tracePath: path.join(dir, TRACE_FILE),
    record: log.record,
    listen: log.listen,
    message: (message) => append(fds.transcript, TRANSCRIPT_FILE, transcriptRecord(message)),
    compaction: (record) => append(fds.transcript, TRANSCRIPT_FILE, { v: RECORD_VERSION, ...record }),
    audit: (record) => append(fds.audit, AUDIT_FILE, { v: RECORD_VERSION, ...record }),
    close: () => {
      if (closed) return;
      closed = true;
      for (const fd of Object.values(fds)) closeSync(fd);
    },
  };
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
