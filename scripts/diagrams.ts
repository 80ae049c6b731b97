/**
 * `npm run diagrams`: every generated picture of the chart, from the commands a person runs, in one
 * place: the committed diagrams beside the machine, the inspector's shipped layout (keyed by the
 * chart's fingerprint), and the docs images. `test/docs/diagram-images.test.ts` fails when any is stale.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chartFingerprint } from '../machines/chart-fingerprint.js';
import { generateDiagrams } from '../src/diagram/generate.js';
import { renderDiagram, type DiagramOptions } from '../src/diagram/render.js';
import { engineChart } from '../src/inspector/chart.js';
import { SHIPPED_CHART } from '../src/inspector/shipped-chart.js';

/** The docs images: the file, and the `xagent diagram` flags that draw it. */
export const DOCS_IMAGES: Array<{ file: string; command: string; options: DiagramOptions }> = [
  { file: 'docs/images/overview.svg', command: 'xagent diagram --depth 1 --format svg', options: { depth: 1 } },
  { file: 'docs/images/call_model.svg', command: 'xagent diagram --state call_model --format svg', options: { state: 'call_model' } },
  {
    file: 'docs/images/ask_permission.svg',
    command: 'xagent diagram --state ask_permission --format svg',
    options: { state: 'ask_permission' },
  },
];

/** The inspector's shipped layout, as written to `inspector/chart-layout.json`. */
export async function shippedLayoutText(): Promise<string> {
  return `${JSON.stringify({ fingerprint: chartFingerprint(), chart: await engineChart() })}\n`;
}

export async function docsImage(options: DiagramOptions): Promise<string> {
  return renderDiagram('svg', options);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // dist/scripts/diagrams.js -> the package root is two levels up.
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const written = await generateDiagrams(root);
  const layout = path.join(root, 'inspector', SHIPPED_CHART);
  writeFileSync(layout, await shippedLayoutText());
  written.push(layout);
  for (const image of DOCS_IMAGES) {
    const file = path.join(root, image.file);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, await docsImage(image.options));
    written.push(file);
  }
  for (const file of written) console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
