/**
 * The request body as JSON text, byte for byte `JSON.stringify(buildRequestBody(args))`, without
 * re-serialising the whole conversation every round.
 *
 * Every round resends the conversation, and `JSON.stringify` of it grew with it: ~0.35 ms of
 * CPU per round at 150 rounds, plus normalising and copying every message (bench/README.md,
 * issue 17). A message never changes once the engine has appended it, so each block's JSON is
 * computed once and kept, keyed by the block object itself; a round then only joins strings.
 * What differs from round to round is recomputed: the merge of same-role neighbours, the
 * tool-results-first order and the rolling cache breakpoint on the newest message.
 * `buildRequestBody` stays the reference: tests compare the two on generated conversations.
 */
import type { Message } from '../../machines/types.js';
import { EPHEMERAL } from './cache-breakpoints.js';
import { type BuildRequestArgs, isEmptyText, normalizeBlock, requestMaxTokens, requestSystem, requestTools } from './request.js';
import type { ToolSpec } from './types.js';

type Block = Message['content'][number];

/**
 * One per client: it remembers the JSON of every block it has encoded (weakly, so a dropped
 * conversation's blocks are collected) and of the tool list and system prompt it last saw.
 * @example const encoder = new RequestEncoder(); const json = encoder.encode({ model, maxTokens, system, messages, tools });
 */
export class RequestEncoder {
  private readonly blockJson = new WeakMap<Block, string>();
  private readonly toolsJson = new WeakMap<readonly ToolSpec[], string>();
  private system: { text: string; cache: boolean; json: string } | undefined;

  encode({ model, maxTokens, system, messages, tools, cache = true, thinkingBudget = 0 }: BuildRequestArgs): string {
    let json = `{"model":${JSON.stringify(model)},"max_tokens":${requestMaxTokens(maxTokens, thinkingBudget)}`;
    json += `,"messages":[${this.messages(messages, cache)}],"stream":true`;
    if (system.trim() !== '') json += `,"system":${this.systemJson(system, cache)}`;
    if (tools.length > 0) json += `,"tools":${this.toolsJsonOf(tools, cache)}`;
    if (thinkingBudget > 0) json += `,"thinking":${JSON.stringify({ type: 'enabled', budget_tokens: thinkingBudget })}`;
    return `${json}}`;
  }

  /** normalizeMessages + markLatestMessage, as text: same-role neighbours merged, tool results first, empty text dropped. */
  private messages(messages: readonly Message[], cache: boolean): string {
    const merged: Array<{ role: Message['role']; blocks: Block[] }> = [];
    for (const message of messages) {
      const last = merged[merged.length - 1];
      const into = last && last.role === message.role ? last.blocks : [];
      const before = into.length;
      for (const block of message.content) if (!isEmptyText(block)) into.push(block);
      if (into.length === before) continue;
      if (into !== last?.blocks) merged.push({ role: message.role, blocks: into });
    }
    const parts: string[] = [];
    for (let m = 0; m < merged.length; m++) {
      const { role, blocks } = merged[m]!;
      const ordered = role === 'user' ? toolResultsFirst(blocks) : blocks;
      const marked = cache && m === merged.length - 1 ? markableIndex(ordered) : -1;
      const texts = ordered.map((block, i) => (i === marked ? JSON.stringify({ ...normalizeBlock(block), cache_control: EPHEMERAL }) : this.block(block)));
      parts.push(`{"role":${JSON.stringify(role)},"content":[${texts.join(',')}]}`);
    }
    return parts.join(',');
  }

  private block(block: Block): string {
    let json = this.blockJson.get(block);
    if (json === undefined) {
      json = JSON.stringify(normalizeBlock(block));
      this.blockJson.set(block, json);
    }
    return json;
  }

  private systemJson(text: string, cache: boolean): string {
    if (this.system?.text !== text || this.system.cache !== cache) {
      this.system = { text, cache, json: JSON.stringify(requestSystem(text, cache)) };
    }
    return this.system.json;
  }

  private toolsJsonOf(tools: readonly ToolSpec[], cache: boolean): string {
    // The engine builds its tool list once per task, so the array itself is the key (with caching on, as sent).
    if (!cache) return JSON.stringify(requestTools(tools, false));
    let json = this.toolsJson.get(tools);
    if (json === undefined) {
      json = JSON.stringify(requestTools(tools, true));
      this.toolsJson.set(tools, json);
    }
    return json;
  }
}

/** Tool results keep their order among themselves, and so does everything else (as normalizeMessages). */
function toolResultsFirst(blocks: Block[]): Block[] {
  let results = 0;
  for (const block of blocks) if (block.type === 'tool_result') results++;
  if (results === 0 || results === blocks.length) return blocks;
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}

/** The newest message's last block that may carry a breakpoint (thinking blocks may not), or -1. */
function markableIndex(blocks: readonly Block[]): number {
  let index = blocks.length - 1;
  while (index >= 0 && /thinking/.test(blocks[index]!.type)) index--;
  return index;
}
