import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOCS_IMAGES, docsImage, shippedLayoutText } from '../../scripts/diagrams.js';
import { SHIPPED_CHART } from '../../src/inspector/shipped-chart.js';
import { runCli } from '../support/run-cli.js';

/** Every generated picture of the chart is current: `npm run diagrams` writes them all, from the commands a person runs. */
const root = path.resolve(import.meta.dirname, '../..');
const regenerate = 'stale: run `npm run diagrams` and commit what it writes';

describe('the generated pictures of the chart', () => {
  for (const image of DOCS_IMAGES) {
    it(`${image.file} is what \`${image.command}\` draws`, async () => {
      expect(await docsImage(image.options), regenerate).toBe(readFileSync(path.join(root, image.file), 'utf8'));
    }, 30_000);
  }

  it('the overview in the docs is byte for byte the output of the command named beside it', async () => {
    const overview = DOCS_IMAGES[0]!;
    const run = await runCli(overview.command.split(' ').slice(1));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout, regenerate).toBe(readFileSync(path.join(root, overview.file), 'utf8'));
    const docs = readFileSync(path.join(root, 'docs', 'engine.md'), 'utf8');
    for (const image of DOCS_IMAGES) expect(docs).toContain(`(${path.relative('docs', image.file)})`);
  }, 30_000);

  it(`inspector/${SHIPPED_CHART} is the layout of this chart, keyed by its fingerprint`, async () => {
    expect(await shippedLayoutText(), regenerate).toBe(readFileSync(path.join(root, 'inspector', SHIPPED_CHART), 'utf8'));
  }, 60_000);
});
