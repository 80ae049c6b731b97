import path from 'node:path';
import type { Message } from '../../machines/types.js';
import { readJsonLines } from './jsonl.js';
import { AUDIT_FILE, TRACE_FILE, TRANSCRIPT_FILE } from './layout.js';
import { isStateRecord, recordVersion, type AuditRecord, type TraceAnnotation, type TraceStateRecord } from './records.js';
import { toMessage } from './transcript.js';

/** A recorded session's three files, read for showing (replay, reports): unusable lines are skipped. */
export interface SessionRecords {
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
  const read = (file: string) =>
    readJsonLines(file).values.map(({ value }) => {
      recordVersion(value, file);
      return value;
    });
  const lines = read(traceFile);
  return {
    states: lines.filter(isStateRecord),
    annotations: lines.filter((l): l is TraceAnnotation => typeof (l as { event?: unknown } | null)?.event === 'string'),
    messages: read(path.join(dir, TRANSCRIPT_FILE))
      .map(toMessage)
      .filter((m): m is Message => m !== null),
    audit: read(path.join(dir, AUDIT_FILE)) as Array<Partial<AuditRecord>>,
  };
}

export { TRACE_FILE };
