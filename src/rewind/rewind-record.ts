/**
 * The evidence line a rewind writes to trace.jsonl (through the session writer, as every line
 * is), so the inspector shows it and the history before it stays readable in the log.
 */
export interface RewindRecordBody {
  event: 'rewind';
  rewind_id: string;
  /** The user message rewound to (1 is the first), and the start of its text. */
  to: number;
  message: string;
  /** Which halves were put back. */
  code: boolean;
  conversation: boolean;
  /** Messages the conversation had before and after. */
  messages_before: number;
  messages_after: number;
  files: Array<{ path: string; action: 'restored' | 'deleted' }>;
  /** Files a code rewind could not put back, and why. */
  left: Array<{ path: string; why: string }>;
}

/** The first line a fork writes to its new session's trace: where its conversation came from. */
export interface ForkRecordBody {
  event: 'fork';
  from_session: string;
  /** The user message the fork starts before, or null for the whole conversation (--fork-session). */
  at: number | null;
  messages: number;
  /** The person's messages the fork's conversation holds: the next one is number `user_messages + 1`. */
  user_messages: number;
}
