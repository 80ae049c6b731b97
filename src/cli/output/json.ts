import { streamJsonLine } from '../../run/stream-json.js';
import type { Renderer, Streams } from '../../run/renderer.js';

/** `--output-format json`: exactly one JSON object on stdout, at the end. */
export function jsonRenderer({ stdout }: Streams): Renderer {
  return {
    onEvent: () => undefined,
    finish: (result) => {
      stdout.write(`${JSON.stringify(result)}\n`);
    },
  };
}

/** `--output-format stream-json`: one JSON object per line, as it happens, the result last. */
export function streamJsonRenderer({ stdout }: Streams): Renderer {
  return {
    onEvent: (event) => {
      if (event.type !== 'result') stdout.write(`${streamJsonLine(event)}\n`);
    },
    finish: (result) => {
      stdout.write(`${streamJsonLine(result)}\n`);
    },
  };
}
