import { howToSetPrice, priceOf, type PriceSettings } from '../model/cost.js';
import type { RunConfig } from './run-config.js';

/**
 * Where total_cost_usd's price came from: `price_source` (`published: <url>`, `settings <file>`), or
 * null with `price_help` saying how to set it. The CLI's json results and the library's result carry it.
 */
export type PriceFields = { price_source: string } | { price_source: null; price_help: string };

/** The price fields of a model's result (src/model/cost.ts decides). */
export function priceFields(modelId: string, prices: PriceSettings): PriceFields {
  const resolved = priceOf(modelId, prices);
  return resolved ? { price_source: resolved.source } : { price_source: null, price_help: howToSetPrice(modelId) };
}

/** A run's price fields; undefined for a scripted model (its label is the script), which has no price to explain. */
export function runPriceFields(config: Pick<RunConfig, 'modelLabel' | 'modelId' | 'modelPrices'>): PriceFields | undefined {
  return config.modelLabel === config.modelId ? priceFields(config.modelId, config.modelPrices) : undefined;
}
