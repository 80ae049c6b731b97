import { estimateTokens } from '../../machines/context-budget.js';
import type { Message } from '../../machines/types.js';
import type { ModelClient, ToolSpec } from '../model/types.js';
import type { CompactionRecord } from '../sessions/compaction-record.js';
import { compactMessages, type Compaction } from './compaction.js';

/**
 * One compaction with a real model client: the summary request carries the task's own system
 * prompt and tools, so it reads the prefix the last round cached. Used by the engine's
 * `compactContext` actor and by `/compact`.
 * @example const compaction = await runCompaction({ model, system, tools, messages, window: 200_000, signal });
 */
export async function runCompaction({
  model,
  system,
  tools,
  messages,
  window,
  signal,
  keepShare,
}: {
  model: ModelClient;
  system: string;
  tools: readonly ToolSpec[];
  messages: readonly Message[];
  window: number;
  signal: AbortSignal;
  keepShare?: number;
}): Promise<Compaction | null> {
  return compactMessages({
    messages,
    window,
    ...(keepShare !== undefined ? { keepShare } : {}),
    overheadTokens: estimateTokens(system) + estimateTokens(tools),
    summarise: (request) => model.createMessage({ system, messages: request, tools, signal }),
  });
}

/** The transcript line that marks the cut (see sessions/compaction-record.ts). */
export function compactionRecord(compaction: Compaction, messageCount: number, reason: CompactionRecord['reason']): CompactionRecord {
  return {
    type: 'compaction',
    ts: new Date().toISOString(),
    summary: compaction.summary,
    removed: compaction.removed,
    kept: messageCount - compaction.removed,
    reason,
    tokens_before: compaction.tokensBefore,
    tokens_after: compaction.tokensAfter,
  };
}

/**
 * `/compact` between tasks: the summary of `messages`, or null when there is nothing to cut. The
 * caller records it through the session (`RunSession.compacted`), which owns the transcript.
 * @example const compaction = await compactBetweenTasks({ model, system, tools, messages: session.messages, window, signal });
 */
export async function compactBetweenTasks(
  options: Parameters<typeof runCompaction>[0] & { messages: Message[] },
): Promise<Compaction | null> {
  return runCompaction(options);
}
