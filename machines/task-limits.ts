import type { EngineContext } from './engine-context.js';

/**
 * How much of the task's limits is left. The limits are the task's, not one agent's: a subagent's
 * rounds and tool calls count toward the `--max-turns` and `--max-tool-calls` of the task the
 * person started. By default the chart reads its own counters (`ownLimits`); src/engine gives every
 * agent of a task the same ledger, so the guards, the check before a call and the batch's room all
 * see what every agent has spent.
 */
export interface TaskLimits {
  /** Tool calls that may still start (0 or less: none). */
  toolCallsLeft(context: EngineContext): number;
  /** Model rounds that may still start (0 or less: none). */
  turnsLeft(context: EngineContext): number;
}

/** One agent alone: its own counters against its own limits. */
export const ownLimits: TaskLimits = {
  toolCallsLeft: (context) => context.maxToolCalls - context.toolCallCount,
  turnsLeft: (context) => context.maxTurns - context.turn,
};

/** The two limit guards, read from `limits` (the chart's `maxTurnsReached` and `maxToolCallsReached`). */
export function limitGuards(limits: TaskLimits) {
  return {
    maxTurnsReached: ({ context }: { context: EngineContext }) => limits.turnsLeft(context) <= 0,
    maxToolCallsReached: ({ context }: { context: EngineContext }) => limits.toolCallsLeft(context) <= 0,
  };
}
