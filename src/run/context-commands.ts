import { estimateTokens } from '../../machines/context-budget.js';
import { costUsd } from '../model/cost.js';
import type { Usage } from '../../machines/types.js';
import { describeContext, describeCost } from '../context/describe.js';
import { compactBetweenTasks } from '../context/run-compaction.js';
import { loadTaskContext } from '../context/task-context.js';
import type { QueryResult } from '../engine/events.js';
import { addUsage } from '../../machines/engine-context.js';
import { addCost } from '../sessions/usage-totals.js';
import type { RunConfig } from './run-config.js';
import type { RunSession } from '../sessions/open-for-run.js';
import type { ToolRegistry } from '../tools/registry.js';

/**
 * `/context`, `/cost` and `/compact` for interactive mode. Each is a function of the run's config
 * and the session's conversation, returning the text to show, so another front end (a command
 * registry) can call the same three.
 */
export interface ContextCommands {
  /** Call with each task's result: the totals /cost shows and the last count /context shows. */
  record(result: QueryResult): void;
  context(): Promise<string>;
  cost(): string;
  compact(signal: AbortSignal): Promise<string>;
}

export const CONTEXT_COMMANDS = {
  '/context': 'what fills the context window, and which instruction files were loaded',
  '/cost': 'tokens and cost of this session so far',
  '/compact': 'summarise the conversation now, keeping the most recent messages',
} as const;

export function contextCommands(
  config: RunConfig,
  session: Pick<RunSession, 'sessionId' | 'messages' | 'compacted'>,
  /** The tools a task gets (with the MCP servers'); default the run's built-ins and custom tools. */
  tools: () => ToolRegistry = () => config.tools,
): ContextCommands {
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let cost: number | null | undefined;
  const taskContext = () => loadTaskContext({ workspace: config.workspace, home: config.home, outsideImports: config.outsideImports });
  return {
    record(result) {
      usage = addUsage(usage, result.usage);
      cost = addCost({ total_cost_usd: cost }, result.total_cost_usd);
    },
    async context() {
      const { system, instructions } = await taskContext();
      return describeContext({
        messages: session.messages,
        contextWindow: config.contextWindow,
        systemTokens: estimateTokens(system) + estimateTokens(tools().specs()),
        instructions,
      });
    },
    cost: () => describeCost({ modelId: config.modelId, usage, costUsd: cost ?? (config.model.modelId ? 0 : null) }),
    async compact(signal) {
      const compaction = await compactBetweenTasks({
        model: config.model,
        system: (await taskContext()).system,
        tools: tools().specs(),
        messages: session.messages,
        window: config.contextWindow,
        signal,
        // On demand, everything but the last answer goes into the summary.
        keepShare: 0,
      });
      if (!compaction) return 'Nothing to compact yet.';
      const { summary, removed, tokensBefore, tokensAfter } = compaction;
      session.compacted({ summary, removed, reason: 'user', tokens_before: tokensBefore, tokens_after: tokensAfter });
      usage = addUsage(usage, compaction.usage);
      cost = addCost(
        { total_cost_usd: cost },
        config.model.modelId ? costUsd(config.model.modelId, compaction.usage, config.modelPrices) : null,
      );
      return `Compacted ${compaction.removed} messages into a summary: ~${compaction.tokensBefore.toLocaleString('en-US')} → ~${compaction.tokensAfter.toLocaleString('en-US')} tokens.`;
    },
  };
}
