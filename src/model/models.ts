/**
 * What xagent knows about each model: its context window, its price and the shortest prompt
 * prefix the API will cache. One table, so the cost, the compaction threshold and the caching
 * rules agree. A model that is not here has an unknown price (never a guessed one) and the
 * common 200k window.
 */

/** US dollars per million tokens. Cache writes (5-minute TTL) cost 1.25x input, reads 0.1x. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

export interface ModelInfo {
  contextWindow: number;
  /** Null when the price is not known. */
  price: ModelPrice | null;
  /** Prefixes shorter than this are never cached. */
  minCacheTokens: number;
}

export const DEFAULT_CONTEXT_WINDOW = 200_000;

const price = (input: number, output: number): ModelPrice => ({ input, output, cacheWrite: input * 1.25, cacheRead: input * 0.1 });

/** Public list prices; ids without their date suffix (claude-sonnet-4-5-20250929 is claude-sonnet-4-5). */
const KNOWN: Record<string, ModelInfo> = {
  'claude-opus-4-6': { contextWindow: 200_000, price: price(5, 25), minCacheTokens: 4096 },
  'claude-sonnet-4-6': { contextWindow: 200_000, price: price(3, 15), minCacheTokens: 2048 },
  'claude-opus-4-5': { contextWindow: 200_000, price: price(5, 25), minCacheTokens: 4096 },
  'claude-opus-4-1': { contextWindow: 200_000, price: price(15, 75), minCacheTokens: 1024 },
  'claude-opus-4': { contextWindow: 200_000, price: price(15, 75), minCacheTokens: 1024 },
  'claude-sonnet-4-5': { contextWindow: 200_000, price: price(3, 15), minCacheTokens: 1024 },
  'claude-sonnet-4': { contextWindow: 200_000, price: price(3, 15), minCacheTokens: 1024 },
  'claude-3-7-sonnet': { contextWindow: 200_000, price: price(3, 15), minCacheTokens: 1024 },
  'claude-haiku-4-5': { contextWindow: 200_000, price: price(1, 5), minCacheTokens: 4096 },
  'claude-3-5-haiku': { contextWindow: 200_000, price: price(0.8, 4), minCacheTokens: 2048 },
  'claude-3-haiku': { contextWindow: 200_000, price: price(0.25, 1.25), minCacheTokens: 2048 },
};

/** The table's key for an id: without a provider prefix (anthropic:) or a date (-20250929) or -latest. */
export function baseModelId(modelId: string): string {
  return modelId.replace(/^[a-z]+:/, '').replace(/-(\d{8}|latest)$/, '');
}

/**
 * What is known about a model; unknown models get the default window and no price.
 * @example modelInfo('claude-sonnet-4-5-20250929').price?.input // => 3
 */
export function modelInfo(modelId: string): ModelInfo {
  return KNOWN[baseModelId(modelId)] ?? { contextWindow: DEFAULT_CONTEXT_WINDOW, price: null, minCacheTokens: 1024 };
}
