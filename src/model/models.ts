/**
 * What xagent knows about each model: its context window, its price and the shortest prompt
 * prefix the API will cache. One table, so the cost, the compaction threshold and the caching
 * rules agree. A model that is not here has an unknown price (never a guessed one) and the
 * common 200k window.
 */

/** US dollars per million tokens. */
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

/** Cache writes (5-minute TTL) cost 1.25x input and reads 0.1x, as every published price so far says. */
const price = (input: number, output: number): ModelPrice => ({ input, output, cacheWrite: input * 1.25, cacheRead: input * 0.1 });

/** Where the built-in prices were published; a price without a source does not belong in the table. */
const PRICING_PAGE = 'https://www.anthropic.com/pricing#api';
const modelPage = (slug: string) => `https://platform.claude.com/docs/en/models/${slug}/overview`;

/** A published list price with the page that says it. */
export interface PublishedPrice {
  price: ModelPrice;
  source: string;
}

const published = (input: number, output: number, source: string): PublishedPrice => ({ price: price(input, output), source });

/**
 * Published list prices, ids without their date suffix (claude-sonnet-4-5-20250929 is claude-sonnet-4-5).
 * A model that is not here has no price until the settings key `modelPrices` gives one.
 */
const PRICES: Record<string, PublishedPrice> = {
  'claude-opus-5-5': published(4, 20, modelPage('opus-5-5')),
  'claude-sonnet-5-5': published(2, 10, modelPage('sonnet-5-5')),
  'claude-opus-5': published(5, 25, modelPage('opus-5')),
  'claude-sonnet-5': published(2, 10, modelPage('sonnet-5')),
  'claude-opus-4-6': published(5, 25, modelPage('opus-4-6')),
  'claude-sonnet-4-6': published(3, 15, PRICING_PAGE),
  'claude-opus-4-5': published(5, 25, modelPage('opus-4-5')),
  'claude-opus-4-1': published(15, 75, PRICING_PAGE),
  'claude-opus-4': published(15, 75, PRICING_PAGE),
  'claude-sonnet-4-5': published(3, 15, PRICING_PAGE),
  'claude-sonnet-4': published(3, 15, PRICING_PAGE),
  'claude-3-7-sonnet': published(3, 15, PRICING_PAGE),
  'claude-haiku-4-5': published(1, 5, PRICING_PAGE),
  'claude-3-5-haiku': published(0.8, 4, PRICING_PAGE),
  'claude-3-haiku': published(0.25, 1.25, PRICING_PAGE),
};

/** Context windows and cache minimums of the models whose limits this table has checked. */
const KNOWN: Record<string, Omit<ModelInfo, 'price'>> = {
  'claude-opus-4-6': { contextWindow: 200_000, minCacheTokens: 4096 },
  'claude-sonnet-4-6': { contextWindow: 200_000, minCacheTokens: 2048 },
  'claude-opus-4-5': { contextWindow: 200_000, minCacheTokens: 4096 },
  'claude-opus-4-1': { contextWindow: 200_000, minCacheTokens: 1024 },
  'claude-opus-4': { contextWindow: 200_000, minCacheTokens: 1024 },
  'claude-sonnet-4-5': { contextWindow: 200_000, minCacheTokens: 1024 },
  'claude-sonnet-4': { contextWindow: 200_000, minCacheTokens: 1024 },
  'claude-3-7-sonnet': { contextWindow: 200_000, minCacheTokens: 1024 },
  'claude-haiku-4-5': { contextWindow: 200_000, minCacheTokens: 4096 },
  'claude-3-5-haiku': { contextWindow: 200_000, minCacheTokens: 2048 },
  'claude-3-haiku': { contextWindow: 200_000, minCacheTokens: 2048 },
};

/** The built-in published price of a model, with its source; null when none was published here. */
export function publishedPrice(modelId: string): PublishedPrice | null {
  return PRICES[baseModelId(modelId)] ?? null;
}

/** The table's key for an id: without a provider prefix (anthropic:) or a date (-20250929) or -latest. */
export function baseModelId(modelId: string): string {
  return modelId.replace(/^[a-z]+:/, '').replace(/-(\d{8}|latest)$/, '');
}

/**
 * What is known about a model; unknown models get the default window and no price.
 * @example modelInfo('claude-sonnet-4-5-20250929').price?.input // => 3
 */
export function modelInfo(modelId: string): ModelInfo {
  const known = KNOWN[baseModelId(modelId)] ?? { contextWindow: DEFAULT_CONTEXT_WINDOW, minCacheTokens: 1024 };
  return { ...known, price: publishedPrice(modelId)?.price ?? null };
}
