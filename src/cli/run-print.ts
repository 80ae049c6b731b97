import type { QueryResult } from '../engine/events.js';
import { exitCodeFor } from './exit-codes.js';
import { jsonRenderer, streamJsonRenderer } from './output/json.js';
import { runPriceFields } from '../run/price-fields.js';
import type { Renderer, Streams } from '../terminal/renderer.js';
import { textRenderer } from '../terminal/text-renderer.js';
import type { RunConfig } from '../run/run-config.js';

export function rendererFor(config: RunConfig, streams: Streams): Renderer {
  const price = runPriceFields(config);
  switch (config.format) {
    case 'json':
      return jsonRenderer(streams, price);
    case 'stream-json':
      return streamJsonRenderer(streams, price);
    case 'text':
      return textRenderer(streams, config.limits);
    default: {
      const unreachable: never = config.format;
      return unreachable;
    }
  }
}

export function exitCodeOf(result: QueryResult): number {
  return exitCodeFor(result.reason);
}
