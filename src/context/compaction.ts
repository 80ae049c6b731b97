/**
 * Compaction: when the conversation nears the context window, the model writes a summary of it,
 * and the task goes on with the summary plus the most recent messages. The chart decides when
 * (the `contextNearWindow` guard) and invokes `compactContext`; this file is what that actor does.
 *
 * The summary request is the conversation itself (the same system prompt and tools, so it reads
 * the cached prefix) followed by a user message asking for the summary. The cut is always just
 * before an assistant message, so a tool_use and its tool_result are never split.
 */
import { estimateMessages, estimateTokens } from '../../machines/context-budget.js';
import type { Message, TextBlock, Usage } from '../../machines/types.js';

export const SUMMARY_REQUEST = [
  'Write a summary of the conversation so far: the task will continue from this summary and the most recent messages only,',
  "so keep everything needed to finish it. Include: what the task is (the user's requests, in their words where it matters);",
  'what was done and found, with concrete facts, names and numbers; files read, created or changed (paths);',
  'commands run and their outcome; decisions made and why; what is left to do. Answer with the summary only.',
].join(' ');

export const SUMMARY_PREFIX = 'This conversation was compacted to fit the context window. A summary of the earlier part:';

/** Share of the window the verbatim recent messages may take after a compaction. */
export const KEEP_SHARE = 0.25;
/** Share of the window the summary request's messages may take (the rest is system, tools, answer). */
export const SOURCE_SHARE = 0.85;

export interface CompactionPlan {
  /** messages[keepFrom..] stay verbatim; messages[keepFrom] is an assistant message. */
  keepFrom: number;
  /** What the summary request sends, before the summary request itself. */
  source: Message[];
}

/**
 * Where to cut: the earliest assistant message from which the rest fits in `keepTokens`, but
 * never the first message and always at least the last assistant message. Null when there is
 * nothing before the last assistant message to summarise.
 * @example chooseCut(messages, 50_000) // => 12
 */
export function chooseCut(messages: readonly Message[], keepTokens: number): number | null {
  let kept = 0;
  let cut: number | null = null;
  for (let i = messages.length - 1; i >= 1; i--) {
    kept += estimateTokens(messages[i]);
    if (messages[i].role !== 'assistant') continue;
    if (cut !== null && kept > keepTokens) break;
    cut = i;
  }
  return cut;
}

/**
 * The messages the summary is written from: all of them when they fit, else the first message
 * (the task, or an earlier summary) and as many of the latest turns before the cut as fit.
 */
export function summarySource(messages: readonly Message[], keepFrom: number, budgetTokens: number): Message[] {
  if (estimateMessages(messages) <= budgetTokens) return [...messages];
  const first = messages[0];
  let used = estimateTokens(first);
  let from = keepFrom;
  for (let i = keepFrom - 1; i >= 1; i--) {
    used += estimateTokens(messages[i]);
    if (used > budgetTokens) break;
    if (messages[i].role === 'assistant') from = i;
  }
  return [first, ...messages.slice(from, keepFrom)];
}

/** The summary request's messages: the source and, last, a user message asking for the summary. */
export function summaryRequestMessages(source: readonly Message[]): Message[] {
  return [...source, { role: 'user', content: [{ type: 'text', text: SUMMARY_REQUEST }] }];
}

export function summaryMessage(summary: string): Message {
  return { role: 'user', content: [{ type: 'text', text: `${SUMMARY_PREFIX}\n\n${summary.trim()}` }] };
}

/** What the chart applies: messages[0..removed) are replaced by `summary`. */
export interface Compaction {
  summary: Message;
  removed: number;
  /** Estimated prompt tokens of the messages after the compaction. */
  tokensAfter: number;
  tokensBefore: number;
  usage: Usage;
}

/** The text of the model's answer (thinking and tool calls left out). */
export function answerText(content: ReadonlyArray<{ type: string }>): string {
  return content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('')
    .trim();
}

/**
 * One compaction as the engine runs it: plan, ask the model, build the result. Null when there
 * is nothing to cut. Throws when the model fails or answers with no text.
 * @example await compactMessages({ messages, window: 200_000, overheadTokens: 3_000, summarise: (m) => model.createMessage({ ... }) })
 */
export async function compactMessages({
  messages,
  window,
  overheadTokens,
  summarise,
  keepShare = KEEP_SHARE,
}: {
  messages: readonly Message[];
  window: number;
  /** Share of the window kept verbatim; 0 keeps only the last answer (what /compact does). */
  keepShare?: number;
  /** System prompt and tools, which every request carries too. */
  overheadTokens: number;
  summarise: (request: Message[]) => Promise<{ content: ReadonlyArray<{ type: string }>; usage: Usage }>;
}): Promise<Compaction | null> {
  const keepFrom = chooseCut(messages, window * keepShare);
  if (keepFrom === null) return null;
  const source = summarySource(messages, keepFrom, Math.max(1, window * SOURCE_SHARE - overheadTokens));
  const response = await summarise(summaryRequestMessages(source));
  const text = answerText(response.content);
  if (!text) throw new Error('the summary request came back without text');
  const summary = summaryMessage(text);
  const tokensBefore = estimateMessages(messages) + overheadTokens;
  const tokensAfter = estimateTokens(summary) + estimateMessages(messages.slice(keepFrom)) + overheadTokens;
  return { summary, removed: keepFrom, tokensAfter, tokensBefore, usage: response.usage };
}
