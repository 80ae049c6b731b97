import type { Usage } from '../../machines/types.js';
import { baseModelId, publishedPrice, type ModelPrice } from './models.js';

/**
 * What a task cost, and where the price came from. Prices are US dollars per million tokens: the
 * settings key `modelPrices` first (`{"<model id>": {"input", "output", "cacheWrite"?, "cacheRead"?}}`),
 * else the built-in table of published prices. An unknown price stays unknown (a wrong figure is
 * worse than none), and says how to set it.
 */

/** `modelPrices` as resolved from the settings files: the price and the file that gave it. */
export type PriceSettings = Readonly<Record<string, { price: ModelPrice; source: string }>>;

export interface ResolvedPrice {
  price: ModelPrice;
  /** `settings <file>` or `published: <url>`. */
  source: string;
}

/** How to give a price the table does not have. */
export function howToSetPrice(modelId: string): string {
  return `set it in settings: "modelPrices": {"${modelId}": {"input": <USD per million tokens>, "output": <USD per million tokens>}}`;
}

/**
 * The price in force for a model: the settings' (exact id, then without its date suffix), else the published one.
 * @example priceOf('claude-sonnet-4-5', {})?.source // 'published: https://www.anthropic.com/pricing#api'
 */
export function priceOf(modelId: string, settings: PriceSettings = {}): ResolvedPrice | null {
  const set = settings[modelId] ?? settings[baseModelId(modelId)];
  if (set) return { price: set.price, source: `settings ${set.source}` };
  const known = publishedPrice(modelId);
  return known ? { price: known.price, source: `published: ${known.source}` } : null;
}

/** Where a model's price comes from, in one line, or how to set it when there is none. */
export function describePrice(modelId: string, settings: PriceSettings = {}): string {
  const resolved = priceOf(modelId, settings);
  if (!resolved) return `price of ${modelId} unknown: ${howToSetPrice(modelId)}`;
  const { input, output } = resolved.price;
  return `$${input} / $${output} per million tokens in/out (${resolved.source})`;
}

/**
 * What `usage` cost in US dollars, or null when the price is unknown. input_tokens are the
 * uncached ones, as the API reports them.
 * @example costUsd('claude-sonnet-4-5', { input_tokens: 1_000_000, output_tokens: 0 }) // => 3
 */
export function costUsd(modelId: string, usage: Usage, settings: PriceSettings = {}): number | null {
  const price = priceOf(modelId, settings)?.price;
  if (!price) return null;
  const dollars =
    usage.input_tokens * price.input +
    usage.output_tokens * price.output +
    (usage.cache_creation_input_tokens ?? 0) * price.cacheWrite +
    (usage.cache_read_input_tokens ?? 0) * price.cacheRead;
  // Per million tokens; rounded to a millionth of a dollar so sums do not show float noise.
  return Math.round(dollars) / 1_000_000;
}

/** "$0.0123", or "unknown price" for a model not in the table. */
export function formatUsd(cost: number | null): string {
  if (cost === null) return 'unknown price';
  return `$${cost < 1 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

/**
 * A `modelPrices` value from one settings file, checked: numbers of at least 0; cache prices default
 * to 1.25x and 0.1x input as published. Returns the prices and what was wrong with the rest.
 */
export function parseModelPrices(
  value: unknown,
  file: string,
): { prices: Record<string, { price: ModelPrice; source: string }>; problems: string[] } {
  const prices: Record<string, { price: ModelPrice; source: string }> = {};
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { prices, problems: ['"modelPrices" must be an object: {"<model id>": {"input": 3, "output": 15}}'] };
  }
  for (const [model, entry] of Object.entries(value)) {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const number = (key: string) => (typeof e[key] === 'number' && (e[key] as number) >= 0 ? (e[key] as number) : undefined);
    const input = number('input');
    const output = number('output');
    if (input === undefined || output === undefined) {
      problems.push(`"modelPrices.${model}" ignored: "input" and "output" must be numbers (USD per million tokens)`);
      continue;
    }
    prices[model] = {
      price: { input, output, cacheWrite: number('cacheWrite') ?? input * 1.25, cacheRead: number('cacheRead') ?? input * 0.1 },
      source: file,
    };
  }
  return { prices, problems };
}
