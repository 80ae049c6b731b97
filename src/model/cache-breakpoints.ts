/**
 * Prompt caching: where the request's `cache_control` breakpoints go. The API caches the prefix
 * tools → system → messages that ends at a breakpoint, and on a later request reads the longest
 * previously written prefix found within about 20 blocks before a breakpoint. So three
 * breakpoints (the API allows four):
 * - the last tool: the tool list is the same every round;
 * - the system prompt: computed once per task, so it is the same every round too;
 * - the last block of the newest message, rolling: each round writes the conversation so far,
 *   and the next round (a few blocks longer) reads it back.
 * Pure, and it never touches the engine's messages: the marked blocks are copies.
 */
import type { Message } from '../../machines/types.js';
import type { ToolSpec } from './types.js';

export const EPHEMERAL = { type: 'ephemeral' } as const;

/** The API rejects more than four. */
export const MAX_BREAKPOINTS = 4;

export interface SystemBlock {
  type: 'text';
  text: string;
  cache_control?: typeof EPHEMERAL;
}

export type CachedTool = ToolSpec & { cache_control?: typeof EPHEMERAL };

/** The tools with a breakpoint on the last one. */
export function markTools(tools: readonly ToolSpec[]): CachedTool[] {
  return tools.map((tool, i) => (i === tools.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool));
}

/** The system prompt as one text block with a breakpoint. */
export function markSystem(system: string): SystemBlock[] {
  return [{ type: 'text', text: system, cache_control: EPHEMERAL }];
}

/** The last block that may carry a breakpoint (thinking blocks may not), or -1. */
export function markableIndex(blocks: Message['content']): number {
  let index = blocks.length - 1;
  while (index >= 0 && /thinking/.test(blocks[index].type)) index--;
  return index;
}
