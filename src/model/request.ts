/**
 * Turns the engine's conversation into a Messages API request body the real API accepts.
 * Pure: no SDK, no I/O, so every rule here is unit-tested on its own.
 *
 * What the API insists on and the engine may not guarantee by itself:
 * - roles alternate (the engine can leave a user tool_result message followed by a user text message);
 * - in a user message, tool_result blocks come before anything else;
 * - no empty text blocks and no messages with empty content;
 * - tool_result content is a string here (the engine's results are text).
 * Pairing tool_use with tool_result is the engine's invariant and is deliberately not repaired
 * here: a silent repair would hide an engine bug that the fake server's validation should catch.
 */
import type { Message, ModelResponse } from '../../machines/types.js';
import { markSystem, markTools, type CachedTool, type SystemBlock } from './cache-breakpoints.js';
import type { ToolSpec } from './types.js';

type Block = Message['content'][number];

export interface MessagesRequestBody {
  model: string;
  max_tokens: number;
  messages: Message[];
  system?: string | SystemBlock[];
  tools?: CachedTool[];
  thinking?: { type: 'enabled'; budget_tokens: number };
  stream: true;
}

/** Room for the answer itself when thinking takes `budget_tokens` of max_tokens. */
export const ANSWER_TOKENS_BEYOND_THINKING = 4096;

export interface BuildRequestArgs {
  model: string;
  maxTokens: number;
  system: string;
  messages: readonly Message[];
  tools: readonly ToolSpec[];
  cache?: boolean;
  thinkingBudget?: number;
}

/** max_tokens, raised above a thinking budget as the API requires. */
export function requestMaxTokens(maxTokens: number, thinkingBudget: number): number {
  return thinkingBudget > 0 ? Math.max(maxTokens, thinkingBudget + ANSWER_TOKENS_BEYOND_THINKING) : maxTokens;
}

/** The system prompt as sent: one text block with a breakpoint when caching. */
export function requestSystem(system: string, cache: boolean): string | SystemBlock[] {
  return cache ? markSystem(system) : system;
}

/** The tools as sent: each with an object schema, a breakpoint on the last when caching. */
export function requestTools(tools: readonly ToolSpec[], cache: boolean): CachedTool[] {
  return cache ? markTools(tools.map(normalizeTool)) : tools.map(normalizeTool);
}

/** Tool results keep their order among themselves, and so does everything else. */
export function toolResultsFirst(content: Block[]): Block[] {
  const results = content.filter((block) => block.type === 'tool_result');
  if (results.length === 0) return content;
  return [...results, ...content.filter((block) => block.type !== 'tool_result')];
}

export function isEmptyText(block: Block): boolean {
  return block.type === 'text' && (typeof block.text !== 'string' || block.text === '');
}

export function normalizeBlock(block: Block): Block {
  if (block.type !== 'tool_result') return block;
  const content = toolResultText(block.content);
  // The API rejects an empty string in an is_error result; say so instead of sending nothing.
  return { ...block, content: content === '' ? '(no output)' : content };
}

/** Copes with results written by other clients (arrays of text blocks, objects) in a resumed transcript. */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : JSON.stringify(part),
      )
      .join('\n');
  }
  if (content === undefined || content === null) return '';
  return JSON.stringify(content);
}

function normalizeTool(tool: ToolSpec): ToolSpec {
  const schema = tool.input_schema;
  // The API requires an object schema at the top; a tool without one takes no input.
  const input_schema = schema.type === 'object' ? schema : { ...schema, type: 'object' };
  return { name: tool.name, description: tool.description, input_schema };
}

/**
 * Ids of tool_use blocks whose input cannot be trusted: JSON that did not parse, or, when the
 * response stopped at max_tokens, a tool_use that is the last block (the model was cut off in it).
 * @example truncatedToolUseIds({ content, stopReason: 'max_tokens', unparsedIds: ['toolu_1'] })
 */
export function truncatedToolUseIds({
  content,
  stopReason,
  unparsedIds,
}: {
  content: ModelResponse['content'];
  stopReason: string;
  unparsedIds: readonly string[];
}): string[] {
  const ids = new Set(unparsedIds);
  const last = content[content.length - 1];
  if (stopReason === 'max_tokens' && last?.type === 'tool_use' && typeof last.id === 'string') ids.add(last.id);
  return [...ids];
}
