/**
 * The reference request builder: the request body as plain objects, which the product's
 * streaming encoder (src/model/request-encoder.ts) must match byte for byte once stringified.
 * Production never builds the body this way (the encoder is faster); the tests use this as the
 * oracle that says what the encoder should produce.
 */
import type { Message } from '../../machines/types.js';
import { EPHEMERAL, markableIndex } from '../../src/model/cache-breakpoints.js';
import {
  type BuildRequestArgs,
  isEmptyText,
  type MessagesRequestBody,
  normalizeBlock,
  requestMaxTokens,
  requestSystem,
  requestTools,
  toolResultsFirst,
} from '../../src/model/request.js';

/**
 * The request body for one streamed model round. Never carries temperature/top_p/top_k:
 * the API version the SDK sends rejects them. With `cache` (the default) it carries the prompt
 * caching breakpoints (see cache-breakpoints.ts); with `thinkingBudget` > 0 it asks for extended
 * thinking, raising max_tokens above the budget as the API requires.
 * The client sends it as text made by RequestEncoder, which must match `JSON.stringify` of this.
 * @example buildRequestBody({ model: 'claude-x', maxTokens: 4096, system: '', messages, tools: [] })
 */
export function buildRequestBody({
  model,
  maxTokens,
  system,
  messages,
  tools,
  cache = true,
  thinkingBudget = 0,
}: BuildRequestArgs): MessagesRequestBody {
  const normalized = normalizeMessages(messages);
  const body: MessagesRequestBody = {
    model,
    max_tokens: requestMaxTokens(maxTokens, thinkingBudget),
    messages: cache ? markLatestMessage(normalized) : normalized,
    stream: true,
  };
  if (system.trim() !== '') body.system = requestSystem(system, cache);
  if (tools.length > 0) body.tools = requestTools(tools, cache);
  if (thinkingBudget > 0) body.thinking = { type: 'enabled', budget_tokens: thinkingBudget };
  return body;
}

/**
 * Merges consecutive same-role messages, puts tool_result blocks first in user messages,
 * drops empty text blocks and then empty messages, and makes tool_result content a string.
 * Does not mutate its input.
 * @example normalizeMessages([{ role: 'user', content: [toolResult] }, { role: 'user', content: [text] }])
 *   // => [{ role: 'user', content: [toolResult, text] }]
 */
export function normalizeMessages(messages: readonly Message[]): Message[] {
  const merged: Message[] = [];
  for (const message of messages) {
    const content = message.content.filter((block) => !isEmptyText(block)).map(normalizeBlock);
    if (content.length === 0) continue;
    const last = merged[merged.length - 1];
    if (last && last.role === message.role) last.content.push(...content);
    else merged.push({ role: message.role, content });
  }
  for (const message of merged) {
    if (message.role === 'user') message.content = toolResultsFirst(message.content);
  }
  return merged;
}

/**
 * The messages with a breakpoint on the newest message's last block that can carry one
 * (not a thinking block, which the API refuses to mark). Only that message is copied.
 * @example markLatestMessage([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])
 *   // => [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }]
 */
export function markLatestMessage(messages: Message[]): Message[] {
  const last = messages[messages.length - 1];
  if (!last) return messages;
  const index = markableIndex(last.content);
  if (index < 0) return messages;
  const content = last.content.slice();
  content[index] = { ...content[index]!, cache_control: EPHEMERAL };
  return [...messages.slice(0, -1), { role: last.role, content }];
}
