import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { AUDIT_FILE } from './layout.js';
import { flushSessionLines } from './line-groups.js';

/** The most of a session file's tail that is read for a hook's extra fields: its last 1 MiB. */
const TAIL_BYTES = 1 << 20;

/** The JSON lines at the end of a file, newest first; torn or foreign lines are left out. */
function tailRecords(file: string): Array<Record<string, unknown>> {
  let text: string;
  // A line this process queued is part of the file already, as far as a reader knows.
  flushSessionLines();
  try {
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  return text
    .split('\n')
    .reverse()
    .flatMap((line) => {
      try {
        const value = JSON.parse(line) as unknown;
        return typeof value === 'object' && value !== null && !Array.isArray(value) ? [value as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
}

/**
 * How long a tool call ran, from the session's audit.jsonl (written when the call ends, before
 * PostToolUse hooks run): Claude Code's `duration_ms`. Undefined without a record of it.
 */
export function toolDurationMs(sessionDir: string, callId: string): number | undefined {
  const record = tailRecords(path.join(sessionDir, AUDIT_FILE)).find((r) => (r.call as { id?: unknown } | undefined)?.id === callId);
  return typeof record?.duration_ms === 'number' ? record.duration_ms : undefined;
}
