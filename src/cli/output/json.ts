import type { PriceFields } from '../../run/price-fields.js';
import { streamJsonLine } from '../../run/stream-json.js';
import { claudeCodeResultFold } from '../../run/claude-result.js';
import type { Renderer, Streams } from '../../terminal/renderer.js';
import { noteResultPrinted } from './exit-result.js';

/** `--output-format json`: exactly one JSON object on stdout, at the end (with Claude Code's result fields). */
export function jsonRenderer({ stdout }: Streams, price?: PriceFields): Renderer {
  const fold = claudeCodeResultFold();
  return {
    onEvent: (event) => fold.observe(event),
    finish: (result) => {
      noteResultPrinted();
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
      noteResultPrinted();
      stdout.write(`${streamJsonLine({ ...fold.complete(result), ...price })}\n`);
    },
  };
}
