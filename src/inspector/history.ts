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
   * Adds a record whose body is the caller's own fresh object (a copy of an evidence line,
   * live-feed.ts), as `append` does but without a second copy: when nothing in it is redacted or
   * clipped, the body itself becomes the record, numbered in place. It is serialized only when sent.
   */
  appendOwn(body: RecordBody, ts: string): InspectorRecord | null;
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
  let capped = false;

  /** `own`: the body is the caller's fresh object, which can become the record itself. */
  const push = (body: RecordBody, ts: string, own: boolean): InspectorRecord => {
    const clean = sanitize(body) as RecordBody;
    // A redacted or clipped body is already a fresh copy (copy-on-write): numbered in place too.
    const record = (own || clean !== body ? clean : { ...clean }) as InspectorRecord;
    record.i = records.length;
    record.ts = ts;
    records.push(record);
    for (const listener of listeners) listener(record);
    return record;
  };

  const add = (body: RecordBody, ts: string, own: boolean): InspectorRecord | null => {
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
        false,
      );
      return body.kind === 'result' ? push(body, ts, own) : null;
    }
    return push(body, ts, own);
  };

  const history: InspectorHistory = {
    records,
    get capped() {
      return capped;
    },
    append: (body, ts = now().toISOString()) => add(body, ts, false),
    appendOwn: (body, ts) => add(body, ts, true),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return history;
}
