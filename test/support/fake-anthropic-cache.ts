/**
 * The fake server's token accounting and prompt cache, by the API's documented rules:
 * - the prompt is tools → system → messages, read as a sequence of blocks;
 * - at most four blocks may carry `cache_control`;
 * - a breakpoint writes the prefix that ends at it (if the prefix reaches the model's minimum);
 * - a hit is a previously written prefix ending at a block boundary found within 20 blocks
 *   before a breakpoint; the longest hit is read, the rest up to the last breakpoint is written;
 * - past the context window the answer is 400 "prompt is too long: N tokens > M maximum".
 * Tokens are estimated deterministically (a quarter of the block's JSON length), independently of
 * the client's own estimate.
 */
import { createHash } from 'node:crypto';

/** How far back from a breakpoint the API looks for a previously written prefix. */
export const CACHE_LOOKBACK_BLOCKS = 20;

export interface CacheRules {
  /** Prompt tokens a request may have; default 200,000. */
  contextWindow: number;
  /** Shortest cacheable prefix, by model id; default 1,024 (2,048 for haiku models). */
  minCacheTokens: (model: string) => number;
}

export const DEFAULT_CACHE_RULES: CacheRules = {
  contextWindow: 200_000,
  minCacheTokens: (model) => (/haiku/.test(model) ? 2048 : 1024),
};

export interface PromptAccounting {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

type Json = Record<string, unknown>;

interface PromptBlock {
  /** The block without its cache_control: caching must not depend on where the breakpoints are. */
  key: string;
  tokens: number;
  breakpoint: boolean;
}

export function estimateTokens(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value).length / 4));
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function promptBlock(block: unknown, extra: string): PromptBlock {
  const { cache_control: cacheControl, ...rest } = isObject(block) ? block : { value: block };
  return { key: extra + JSON.stringify(rest), tokens: estimateTokens(rest), breakpoint: cacheControl !== undefined };
}

/** The prompt as the cache sees it: every tool, system block and message block, in order. */
export function promptBlocks(body: Json): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  if (Array.isArray(body.tools)) for (const tool of body.tools) blocks.push(promptBlock(tool, 'tool:'));
  if (typeof body.system === 'string') blocks.push(promptBlock({ type: 'text', text: body.system }, 'system:'));
  else if (Array.isArray(body.system)) for (const block of body.system) blocks.push(promptBlock(block, 'system:'));
  if (Array.isArray(body.messages)) {
    body.messages.forEach((message: unknown, i) => {
      if (!isObject(message)) return;
      const role = `${String(message.role)}:${i}:`;
      // The message boundary is part of the key: the same block in another message is another prefix.
      if (typeof message.content === 'string') blocks.push(promptBlock({ type: 'text', text: message.content }, role));
      else if (Array.isArray(message.content))
        for (const [j, block] of (message.content as unknown[]).entries()) blocks.push(promptBlock(block, `${role}${j}:`));
    });
  }
  return blocks;
}

/** The rules a request's cache_control markers break (more than four; on a thinking block). */
export function validateCacheControl(body: Json): string[] {
  const count = promptBlocks(body).filter((b) => b.breakpoint).length;
  const errors: string[] = [];
  if (count > 4) errors.push(`A maximum of 4 blocks with cache_control may be provided. Found ${count}.`);
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (!isObject(message) || !Array.isArray(message.content)) continue;
      for (const block of message.content) {
        if (isObject(block) && (block.type === 'thinking' || block.type === 'redacted_thinking') && block.cache_control !== undefined) {
          errors.push('cache_control cannot be set on thinking blocks');
        }
      }
    }
  }
  return errors;
}

/**
 * One server's cache: prefixes written by earlier requests, keyed by model and the hash chain of
 * their blocks. Writes live for the server's lifetime (the tests are shorter than the 5-minute TTL).
 */
export class PromptCache {
  private readonly written = new Set<string>();

  constructor(private readonly rules: CacheRules = DEFAULT_CACHE_RULES) {}

  /** The total prompt tokens, or the API's error message when they pass the window. */
  tooLong(body: Json): string | null {
    const total = promptBlocks(body).reduce((sum, b) => sum + b.tokens, 0);
    return total > this.rules.contextWindow ? `prompt is too long: ${total} tokens > ${this.rules.contextWindow} maximum` : null;
  }

  /** Reads and writes the cache for one accepted request and says how its input tokens split. */
  account(body: Json): PromptAccounting {
    const model = String(body.model);
    const blocks = promptBlocks(body);
    const hashes: string[] = [];
    const cumulative: number[] = [];
    let hash = createHash('sha256').update(model).digest('hex');
    let tokens = 0;
    for (const block of blocks) {
      hash = createHash('sha256').update(hash).update(block.key).digest('hex');
      tokens += block.tokens;
      hashes.push(hash);
      cumulative.push(tokens);
    }
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    const total = tokens;
    let readEnd = -1;
    for (const at of breakpoints) {
      for (let i = at; i >= Math.max(0, at - CACHE_LOOKBACK_BLOCKS); i--) {
        if (this.written.has(hashes[i]!)) {
          readEnd = Math.max(readEnd, i);
          break;
        }
      }
    }
    const read = readEnd >= 0 ? cumulative[readEnd]! : 0;
    const minimum = this.rules.minCacheTokens(model);
    let writeEnd = readEnd;
    for (const at of breakpoints) {
      if (at > readEnd && cumulative[at]! >= minimum) {
        this.written.add(hashes[at]!);
        writeEnd = Math.max(writeEnd, at);
      }
    }
    const created = writeEnd > readEnd ? cumulative[writeEnd]! - read : 0;
    return { input_tokens: total - read - created, cache_read_input_tokens: read, cache_creation_input_tokens: created };
  }
}
