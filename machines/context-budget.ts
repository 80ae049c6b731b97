import type { Message, Usage } from './types.js';

/** What the compactContext actor hands back: messages[0..removed) become `summary`. Null: nothing to cut. */
export type CompactionOutcome = {
  summary: Message;
  removed: number;
  /** Estimated prompt tokens before and after the compaction. */
  tokensBefore: number;
  tokensAfter: number;
  /** The summary request's usage (it is part of the task's bill). */
  usage: Usage;
  /** Why it ran: the input's reason, handed back for the transcript's record. */
  reason: CompactionReason;
} | null;

/** Why a compaction runs: the threshold was passed, or the API answered "prompt is too long". */
export type CompactionReason = 'threshold' | 'prompt_too_long';

/** What the summary actor is told; the conversation itself is src's (the engine keeps it outside the chart). */
export interface CompactContextInput {
  turn: number;
  window: number;
  reason: CompactionReason;
  tokens: number;
}

/**
 * How full the context window is, kept as counters so the chart's guards read numbers, never the
 * (shared, append-only) message array. The estimate is a quarter of the JSON length: rough, but
 * the real count arrives with every response's usage and the threshold leaves 20 % slack.
 */

/** Compact before a request would pass this share of the window. */
export const COMPACTION_THRESHOLD = 0.8;

export interface ContextBudget {
  /** Prompt tokens the model takes; null = never compact. */
  window: number | null;
  /** The next request's prompt tokens: the last usage (prompt + answer) plus what was appended (or collected as a result) since. */
  tokens: number;
  /** The turn at which the conversation was last compacted: at most one compaction per round. */
  compactedAtTurn: number | null;
}

export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

export function estimateMessages(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateTokens(message);
  return total;
}

/** All the prompt tokens a response's usage reports, plus its answer (which the next prompt carries). */
export function usageTokens(usage: Usage): number {
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + usage.output_tokens;
}

/** The guard: compaction is due before the next request (and has not been done this round). */
export function nearWindow(budget: ContextBudget, turn: number): boolean {
  if (budget.compactedAtTurn === turn) return false;
  return budget.window !== null && budget.tokens >= budget.window * COMPACTION_THRESHOLD;
}

/** The window the API states in "prompt is too long: N tokens > M maximum" (M), if it says. */
export function statedWindow(error: unknown): number | null {
  const match = /(\d+) tokens > (\d+) maximum/.exec(error instanceof Error ? error.message : String(error));
  return match ? Number(match[2]) : null;
}

/** The API's 400 for a prompt past the window, whatever client threw it. */
export function isPromptTooLong(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /prompt is too long/i.test(message);
}
