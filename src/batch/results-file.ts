import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';

/** Where a batch's results go: one JSON object per line, each written whole. */
export interface ResultsOut {
  /** Writes one result as one line in one write(2): a reader (or a killed batch) never sees half of it. */
  write(result: object): void;
  close(): void;
}

/**
 * The ids a previous run of the batch already finished, from its results file (absent: none). A
 * last line torn by a kill is cut off, so the next result starts on a line of its own.
 * @example const done = finishedIds('results.jsonl'); done.has('fix-17')
 */
export function finishedIds(file: string): Set<string> {
  const ids = new Set<string>();
  if (!existsSync(file)) return ids;
  const text = readFileSync(file, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) {
    const fd = openSync(file, 'r+');
    try {
      ftruncateSync(fd, Buffer.byteLength(text.slice(0, end)));
    } finally {
      closeSync(fd);
    }
  }
  for (const line of text.slice(0, end).split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as { type?: unknown; id?: unknown };
      if (value.type === 'result' && (typeof value.id === 'string' || typeof value.id === 'number')) ids.add(String(value.id));
    } catch {
      // Not a result line: its task runs again.
    }
  }
  return ids;
}

/**
 * Opens `file` for appending results (created if missing); the descriptor stays open for the
 * batch: one, however many tasks run.
 * @example const out = openResults('results.jsonl'); out.write({ id: 1, type: 'result', ... }); out.close();
 */
export function openResults(file: string): ResultsOut {
  const fd = openSync(file, 'a');
  return streamResults(
    (line) => writeSync(fd, line),
    () => closeSync(fd),
  );
}

/** Results as lines on a stream (stdout when there is no `--out`). */
export function streamResults(write: (line: string) => void, close: () => void = () => {}): ResultsOut {
  return {
    write: (result) => write(`${JSON.stringify(result)}\n`),
    close,
  };
}
