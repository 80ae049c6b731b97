import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Where one session's evidence goes, appended line by line as it happens. */
export interface SessionSink {
  readonly dir: string | null;
  readonly tracePath: string | null;
  trace(line: object): void;
  transcript(message: object): void;
  audit(entry: object): void;
  close(): void;
}

/**
 * Opens (appending) trace.jsonl, transcript.jsonl and audit.jsonl in `dir`. Each line is one
 * write(2) to an O_APPEND descriptor, so a crash can tear at most the last line.
 * @example const sink = openSessionFiles('/home/me/.xagent/sessions/abc'); sink.trace({ state: 'done' });
 */
export function openSessionFiles(dir: string): SessionSink {
  mkdirSync(dir, { recursive: true });
  const open = (name: string) => openSync(path.join(dir, name), 'a');
  const fds = { trace: open('trace.jsonl'), transcript: open('transcript.jsonl'), audit: open('audit.jsonl') };
  let closed = false;
  const append = (fd: number, value: object) => {
    if (!closed) writeSync(fd, `${JSON.stringify(value)}\n`);
  };
  return {
    dir,
    tracePath: path.join(dir, 'trace.jsonl'),
    trace: (line) => append(fds.trace, line),
    transcript: (message) => append(fds.transcript, message),
    audit: (entry) => append(fds.audit, entry),
    close: () => {
      if (closed) return;
      closed = true;
      for (const fd of Object.values(fds)) closeSync(fd);
    },
  };
}

/** For benchmarks and embedders that keep no record. */
export const noSessionFiles: SessionSink = {
  dir: null,
  tracePath: null,
  trace: () => undefined,
  transcript: () => undefined,
  audit: () => undefined,
  close: () => undefined,
};
