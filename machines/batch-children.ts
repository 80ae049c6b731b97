import { BATCH_LIMITS, batchIndexOf, failureOf, type BatchCall, type BatchOutcome } from './batch-steps.js';
import type { EngineOutput } from './engine-context.js';
import { isSubagentCall, subagentResult } from './subagent-steps.js';
import type { ToolResult } from './types.js';

/**
 * The children of a batch: which waiting calls may start now, and what a child's done or error
 * event makes of its call's record (replaced whole, never changed in place).
 */

/** A batch child's done or error event (`xstate.done.actor.batch-<i>`). */
export type BatchChildEvent =
  | { type: `xstate.done.actor.${string}`; output: ToolResult | EngineOutput }
  | { type: `xstate.error.actor.${string}`; error: unknown };

/** The indexes of the waiting calls that may start, in the model's order, within BATCH_LIMITS for their kind. */
export function startableBatchCalls(batch: readonly BatchCall[]): number[] {
  const running = { subagents: 0, tools: 0 };
  for (const b of batch) if (b.status === 'running') running[isSubagentCall(b.call) ? 'subagents' : 'tools'] += 1;
  const starting: number[] = [];
  batch.forEach((b, index) => {
    if (b.status !== 'waiting') return;
    const kind = isSubagentCall(b.call) ? 'subagents' : 'tools';
    if (running[kind] >= BATCH_LIMITS[kind]) return;
    running[kind] += 1;
    starting.push(index);
  });
  return starting;
}

/** The batch once the child of one call answered: that call is done, with its result (a subagent's answer) or its failure. */
export function withBatchOutcome(batch: readonly BatchCall[], event: BatchChildEvent): BatchCall[] {
  const index = batchIndexOf(event.type);
  const entry = batch[index];
  if (entry?.status !== 'running') return [...batch];
  const outcome: BatchOutcome =
    'output' in event
      ? { result: isSubagentCall(entry.call) ? subagentResult(entry.call, event.output as EngineOutput) : (event.output as ToolResult) }
      : failureOf(event.error);
  return batch.map((b, i) => (i === index ? { ...b, status: 'done', outcome } : b));
}
