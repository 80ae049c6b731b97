import type { Usage } from '../../machines/types.js';
import { modelInfo } from './models.js';

/**
 * What `usage` cost in US dollars at the model's list price, or null when the price is unknown
 * (a wrong figure is worse than none). input_tokens are the uncached ones, as the API reports them.
 * @example costUsd('claude-sonnet-4-5', { input_tokens: 1_000_000, output_tokens: 0 }) // => 3
 */
export function costUsd(modelId: string, usage: Usage): number | null {
  const price = modelInfo(modelId).price;
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
