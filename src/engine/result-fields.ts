import type { EngineOutput } from '../../machines/engine-context.js';
import { costUsd, type PriceSettings } from '../model/cost.js';
import type { ModelClient } from '../model/types.js';
import type { ResultFields } from '../sessions/records.js';

/** How an agent's run ended, as the chart's output says, with what only the engine knows (text, cost, time, trace). */
export type AgentOutcome = Pick<
  ResultFields,
  'reason' | 'turns' | 'tool_calls' | 'usage' | 'error' | 'decision' | 'call' | 'model_stop_reason'
>;

/** The chart's output as an outcome; `counts` are the task's for the main agent (its subagents' included). */
export function outcomeOf(output: EngineOutput, counts: { turns: number; tool_calls: number }): AgentOutcome {
  return {
    reason: output.reason,
    ...counts,
    usage: output.usage,
    ...(output.error ? { error: output.error } : {}),
    ...(output.decision ? { decision: output.decision } : {}),
    ...(output.stoppedCall ? { call: output.stoppedCall } : {}),
    ...(output.modelStopReason ? { model_stop_reason: output.modelStopReason } : {}),
  };
}

/** The `result` line of an agent (the main agent's, a subagent's): one shape for the log, the stream and the CLI. */
export function resultFields(
  outcome: AgentOutcome,
  run: { text: string; model: ModelClient; prices?: PriceSettings; durationMs: number; tracePath: string | null },
): ResultFields {
  const { reason, turns, tool_calls, usage, ...rest } = outcome;
  return {
    reason,
    is_error: reason !== 'final_answer',
    text: run.text,
    turns,
    tool_calls,
    usage,
    total_cost_usd: run.model.modelId ? costUsd(run.model.modelId, usage, run.prices) : null,
    duration_ms: run.durationMs,
    trace_path: run.tracePath,
    ...rest,
  };
}
