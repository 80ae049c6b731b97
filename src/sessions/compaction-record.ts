import type { Message } from '../../machines/types.js';

/**
 * A line of transcript.jsonl that is not a message: the conversation was compacted here. Every
 * message before it stays in the file (nothing is lost for the user), but the conversation sent
 * to the model from here on is `summary` followed by the last `kept` messages before this line.
 */
export interface CompactionRecord {
  v?: number;
  type: 'compaction';
  ts: string;
  summary: Message;
  /** Messages replaced by the summary. */
  removed: number;
  /** Messages kept verbatim after the summary. */
  kept: number;
  reason: 'threshold' | 'prompt_too_long' | 'user';
  tokens_before: number;
  tokens_after: number;
}

export function isCompactionRecord(value: unknown): value is CompactionRecord {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<CompactionRecord>;
  return (
    v.type === 'compaction' &&
    typeof v.kept === 'number' &&
    Number.isInteger(v.kept) &&
    v.kept >= 0 &&
    typeof v.summary === 'object' &&
    v.summary !== null
  );
}

/** The conversation after the record: the summary, then the last `kept` messages (in place). */
export function applyCompactionRecord(messages: Message[], record: CompactionRecord): void {
  messages.splice(0, Math.max(0, messages.length - record.kept), record.summary);
}
