import path from 'node:path';
import type { Message } from '../../machines/types.js';
import { readJsonLines } from './jsonl.js';
import { AUDIT_FILE, TRACE_FILE, TRANSCRIPT_FILE } from './layout.js';
import {
  isStateRecord,
  RECORD_VERSION,
  recordVersion,
  type AuditRecord,
  type TraceAnnotation,
  type TraceRecord,
  type TraceStateRecord,
} from './records.js';
import { toMessage } from './transcript.js';
import { withToolOutputs } from './tool-outputs.js';

/** A recorded session's three files, read for showing (replay, reports): unusable lines are skipped, tool outputs the trace left to the transcript are put back. */
export interface SessionRecords {
  /** Every line of trace.jsonl that parsed, in file order. */
  lines: TraceRecord[];
  /** The oldest record version among them (1 for lines without `v`). */
  oldestVersion: number;
  states: TraceStateRecord[];
  annotations: TraceAnnotation[];
  messages: Message[];
  audit: Array<Partial<AuditRecord>>;
}

/**
 * Reads trace.jsonl, transcript.jsonl and audit.jsonl beside `traceFile`. Lines of any version up
 * to this xagent's are read (old ones have no `v` and no `via`); a newer one throws SessionError.
 * @example const { states } = readSessionRecords('/home/me/.xagent/sessions/abc/trace.jsonl');
 */
export function readSessionRecords(traceFile: string): SessionRecords {
  const dir = path.dirname(traceFile);
  let oldestVersion = Number.POSITIVE_INFINITY;
  const read = (file: string, track = false) =>
    readJsonLines(file).values.map(({ value }) => {
      const v = recordVersion(value, file);
      if (track) oldestVersion = Math.min(oldestVersion, v);
      return value;
    });
  const traceLines = read(traceFile, true).filter(
    (l): l is TraceRecord => isStateRecord(l) || typeof (l as { event?: unknown } | null)?.event === 'string',
  );
  const messages = read(path.join(dir, TRANSCRIPT_FILE))
    .map(toMessage)
    .filter((m): m is Message => m !== null);
  const audit = read(path.join(dir, AUDIT_FILE)) as Array<Partial<AuditRecord>>;
  // The main agent's tool outputs live in the transcript; the lines get them back here, for every reader.
  const lines = withToolOutputs(traceLines, messages, audit);
  return {
    lines,
    oldestVersion: Number.isFinite(oldestVersion) ? oldestVersion : RECORD_VERSION,
    states: lines.filter(isStateRecord),
    annotations: lines.filter((l): l is TraceAnnotation => !isStateRecord(l)),
    messages,
    audit,
  };
}

export { TRACE_FILE };
