import type { InspectorRecord, RecordBody } from './records.js';
import { createSanitizer } from './redact.js';

export const DEFAULT_MAX_RECORDS = 50_000;
export const DEFAULT_MAX_TEXT = 20_000;

export interface HistoryOptions {
  /** Records kept in memory; when reached, one `notice` is added and later records are dropped (results excepted). */
  maxRecords?: number;
  /** Longer strings (a large file read, a long command output) are cut to this many characters. */
  maxTextChars?: number;
  /** Exact secret values to remove besides the built-in patterns, e.g. $ANTHROPIC_API_KEY. */
  secrets?: ReadonlyArray<string | undefined>;
  now?: () => Date;
}

export interface InspectorHistory {
  readonly records: readonly InspectorRecord[];
  readonly capped: boolean;
  /** Adds a record (redacted and clipped); returns it, or null when the cap dropped it. */
  append(body: RecordBody, ts?: string): InspectorRecord | null;
  /**
   * Adds a record that is a line of the evidence log, `line` being that line's JSON: when the line
   * holds nothing to redact or clip, the page gets it as it is (with `i`, `kind` and a state's
   * `name` in front), serialized once for the file and every client; otherwise as `append` does.
   * The body becomes the record (numbered in place): pass a fresh object.
   */
  appendLine(body: RecordBody, ts: string, line: string): InspectorRecord | null;
  /** The record as JSON, serialized once however many clients (and reconnects) send it. */
  json(record: InspectorRecord): string;
  /** Calls `listener` with each record appended from now on; returns the unsubscribe. */
  subscribe(listener: (record: InspectorRecord) => void): () => void;
}

/**
 * The inspector's append-only, in-memory history: what the page gets on connect and then live.
 * @example const history = createHistory({ secrets: [process.env.ANTHROPIC_API_KEY] });
 *          history.append({ kind: 'text', text: 'hello' });
 */
export function createHistory(options: HistoryOptions = {}): InspectorHistory {
  const maxRecords = Math.max(2, options.maxRecords ?? DEFAULT_MAX_RECORDS);
  const maxText = options.maxTextChars ?? DEFAULT_MAX_TEXT;
  const now = options.now ?? (() => new Date());
  const sanitize = createSanitizer({ secrets: options.secrets, maxText });
  const records: InspectorRecord[] = [];
  const listeners = new Set<(record: InspectorRecord) => void>();
  const serialized: string[] = [];
  let capped = false;

  const push = (body: RecordBody, ts: string): InspectorRecord => {
    const clean = sanitize(body) as RecordBody;
    const record = { ...clean, i: records.length, ts } as InspectorRecord;
    records.push(record);
    for (const listener of listeners) listener(record);
    return record;
  };

  const appendLine = (body: RecordBody, ts: string, line: string): InspectorRecord | null => {
    if (capped || records.length >= maxRecords - 1 || !sanitize.untouched(line)) return history.append(body, ts);
    const i = records.length;
    // The body is the caller's own copy of the line (live-feed.ts): numbered in place, not copied again.
    const record = Object.assign(body, { i, ts }) as InspectorRecord;
    const name = body.kind === 'state' ? `,"name":${JSON.stringify(body.name)}` : '';
    serialized[i] = `{"i":${i},"kind":"${body.kind}"${name},${line.slice(1)}`;
    records.push(record);
    for (const listener of listeners) listener(record);
    return record;
  };

  const history: InspectorHistory = {
    records,
    get capped() {
      return capped;
    },
    append(body, ts = now().toISOString()) {
      // The result is kept past the cap: it is one record per task and says how the run ended.
      if (capped && body.kind !== 'result') return null;
      if (!capped && records.length >= maxRecords - 1) {
        capped = true;
        push(
          {
            kind: 'notice',
            message: `The inspector keeps at most ${maxRecords} records in memory; later events are not shown (the session's trace.jsonl has them all).`,
          },
          ts,
        );
        return body.kind === 'result' ? push(body, ts) : null;
      }
      return push(body, ts);
    },
    appendLine,
    json(record) {
      return (serialized[record.i] ??= JSON.stringify(record));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return history;
}
