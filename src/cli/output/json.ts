import { howToSetPrice, priceOf, type PriceSettings } from '../../model/cost.js';
import { streamJsonLine } from '../../run/stream-json.js';
import { claudeCodeResultFold } from '../../run/claude-result.js';
import type { Renderer, Streams } from '../../run/renderer.js';

/**
 * Where total_cost_usd's price came from: `price_source` (`published: <url>`, `settings <file>`), or
 * null with `price_help` saying how to set it. Undefined for a scripted model, which has no price.
 */
export type PriceFields = { price_source: string } | { price_source: null; price_help: string };

/** The price fields of a model's result (src/model/cost.ts decides). */
export function priceFields(modelId: string, prices: PriceSettings): PriceFields {
  const resolved = priceOf(modelId, prices);
  return resolved ? { price_source: resolved.source } : { price_source: null, price_help: howToSetPrice(modelId) };
}

/** `--output-format json`: exactly one JSON object on stdout, at the end (with Claude Code's result fields). */
export function jsonRenderer({ stdout }: Streams, price?: PriceFields): Renderer {
  const fold = claudeCodeResultFold();
  return {
    onEvent: (event) => fold.observe(event),
    finish: (result) => {
      stdout.write(`${JSON.stringify({ ...fold.complete(result), ...price })}\n`);
    },
  };
}

/** `--output-format stream-json`: one JSON object per line, as it happens, the result last. */
export function streamJsonRenderer({ stdout }: Streams, price?: PriceFields): Renderer {
  const fold = claudeCodeResultFold();
  return {
    onEvent: (event) => {
      fold.observe(event);
      if (event.type !== 'result') stdout.write(`${streamJsonLine(event)}\n`);
    },
    finish: (result) => {
      stdout.write(`${streamJsonLine({ ...fold.complete(result), ...price })}\n`);
    },
  };
}
