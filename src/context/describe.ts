import { COMPACTION_THRESHOLD, estimateMessages } from '../../machines/context-budget.js';
import type { Message, Usage } from '../../machines/types.js';
import { formatUsd } from '../model/cost.js';
import type { InstructionFile } from './project-instructions.js';

/**
 * What `/context` and `/cost` show, as plain text. Pure, so any front end (the readline prompt,
 * an Ink UI's command registry) renders the same facts.
 */

const n = (value: number) => value.toLocaleString('en-US');

/**
 * @example describeContext({ messages, contextWindow: 200_000, systemTokens: 2_500, instructions, lastPromptTokens: 48_000 })
 */
export function describeContext({
  messages,
  contextWindow,
  systemTokens,
  instructions,
  lastPromptTokens,
}: {
  messages: readonly Message[];
  contextWindow: number;
  /** System prompt and tool definitions. */
  systemTokens: number;
  instructions: readonly Pick<InstructionFile, 'path' | 'text' | 'truncated'>[];
  /** The last request's prompt tokens as the API counted them, when there was one. */
  lastPromptTokens?: number;
}): string {
  const messageTokens = estimateMessages(messages);
  const total = systemTokens + messageTokens;
  const share = (tokens: number) => `${((tokens / contextWindow) * 100).toFixed(1)} %`;
  const lines = [
    `Context: ~${n(total)} of ${n(contextWindow)} tokens (${share(total)}); compaction at ${COMPACTION_THRESHOLD * 100} %.`,
    `  system prompt and tools: ~${n(systemTokens)} tokens`,
    `  conversation: ~${n(messageTokens)} tokens in ${messages.length} messages`,
  ];
  if (lastPromptTokens !== undefined)
    lines.push(`  last request, as the API counted it: ${n(lastPromptTokens)} tokens (${share(lastPromptTokens)})`);
  if (instructions.length === 0)
    lines.push('Instruction files: none (AGENTS.md or CLAUDE.md in the workspace or its parents, or $XAGENT_HOME/AGENTS.md)');
  else {
    lines.push('Instruction files:');
    for (const file of instructions) lines.push(`  ${file.path} (${n(file.text.length)} chars${file.truncated ? ', cut to fit' : ''})`);
  }
  return lines.join('\n');
}

/**
 * @example describeCost({ modelId: 'claude-sonnet-4-5', usage, costUsd: 0.0123 })
 */
export function describeCost({ modelId, usage, costUsd }: { modelId: string; usage: Usage; costUsd: number | null }): string {
  const read = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  const input = usage.input_tokens + read + written;
  const lines = [
    `Cost: ${formatUsd(costUsd)}${costUsd === null ? ` (no price known for ${modelId}; tokens below)` : ` (${modelId}, list price)`}`,
    `  input: ${n(input)} tokens: ${n(read)} read from the cache (${input ? ((read / input) * 100).toFixed(0) : 0} %), ${n(written)} written to it, ${n(usage.input_tokens)} uncached`,
    `  output: ${n(usage.output_tokens)} tokens`,
  ];
  return lines.join('\n');
}
