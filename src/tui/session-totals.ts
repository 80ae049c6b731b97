import type { Usage } from '../../machines/types.js';
import { describePrice, priceOf } from '../model/cost.js';
import type { RunConfig } from '../run/run-config.js';
import { readMeta } from '../sessions/meta.js';
import type { RunSession } from '../sessions/open-for-run.js';

/**
 * What the status line and /cost start from: a resumed session's tokens and cost as its meta.json
 * keeps them (cache tokens too), so /cost after --resume counts the whole session; zero for a new one.
 */
export function sessionTotals(session: Pick<RunSession, 'dir' | 'isNew'>): { usage: Usage; costUsd: number | null } {
  const empty = { usage: { input_tokens: 0, output_tokens: 0 }, costUsd: null };
  if (session.isNew) return empty;
  const read = readMeta(session.dir);
  if (read.kind !== 'ok' || !read.meta.usage) return empty;
  return { usage: read.meta.usage, costUsd: read.meta.total_cost_usd ?? null };
}

/** The model's price as the UI tells it: where it comes from, or how to set it. */
export function priceView(config: Pick<RunConfig, 'modelId' | 'modelLabel' | 'modelPrices'>): { known: boolean; text: string } {
  if (config.modelLabel !== config.modelId) return { known: true, text: 'a scripted model: no price' };
  return { known: priceOf(config.modelId, config.modelPrices) !== null, text: describePrice(config.modelId, config.modelPrices) };
}
