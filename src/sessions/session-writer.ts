import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Message } from '../../machines/types.js';
import type { Step } from '../engine/step.js';
import { AUDIT_FILE, TRACE_FILE, TRANSCRIPT_FILE } from './layout.js';
import {
  RECORD_VERSION,
  traceStateRecord,
  transcriptRecord,
  type AuditRecord,
  type TraceAnnotation,
  type TraceStateRecord,
} from './records.js';

type WithoutVersion<T> = T extends unknown ? Omit<T, 'v'> : never;

/** Where one session's evidence goes, appended record by record as it happens. query() writes through this. */
export interface SessionSink {
  readonly dir: string | null;
  readonly tracePath: string | null;
  /** Writes the state line of `step`; returns the record (so an observer can reuse it, not rebuild it). */
  step(step: Step, ts: string): TraceStateRecord;
  annotate(record: WithoutVersion<TraceAnnotation>): void;
  message(message: Message): void;
  audit(record: Omit<AuditRecord, 'v'>): void;
  close(): void;
}

/**
 * Opens (appending) trace.jsonl, transcript.jsonl and audit.jsonl in `dir`. Each line is one
 * write(2) to an O_APPEND descriptor, so a crash can tear at most the last line.
 * @example const sink = openSessionWriter(sessionDir(home, id)); for await (const e of query(p, { ...options, session: sink }));
 */
export function openSessionWriter(dir: string, sessionId: string): SessionSink {
  mkdirSync(dir, { recursive: true });
  const open = (name: string) => openSync(path.join(dir, name), 'a');
  const fds = { trace: open(TRACE_FILE), transcript: open(TRANSCRIPT_FILE), audit: open(AUDIT_FILE) };
  let closed = false;
  const append = (fd: number, value: object) => {
    if (!closed) writeSync(fd, `${JSON.stringify(value)}\n`);
  };
  return {
    dir,
    tracePath: path.join(dir, TRACE_FILE),
    step: (step, ts) => {
      const record = traceStateRecord(step, ts, sessionId);
      append(fds.trace, record);
      return record;
    },
    annotate: (record) => append(fds.trace, { v: RECORD_VERSION, ...record }),
    message: (message) => append(fds.transcript, transcriptRecord(message)),
    audit: (record) => append(fds.audit, { v: RECORD_VERSION, ...record }),
    close: () => {
      if (closed) return;
      closed = true;
      for (const fd of Object.values(fds)) closeSync(fd);
    },
  };
}

/** For benchmarks and embedders that keep no record. */
export function noSessionRecord(sessionId: string): SessionSink {
  return {
    dir: null,
    tracePath: null,
    step: (step, ts) => traceStateRecord(step, ts, sessionId),
    annotate: () => undefined,
    message: () => undefined,
    audit: () => undefined,
    close: () => undefined,
  };
}
