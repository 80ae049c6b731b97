import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/** The settings key modelPrices and the json result's price fields, end to end. */
const api = useFakeApi();

describe('a price for every model', () => {
  it('modelPrices in settings prices a model the table does not know; the json result says where the price came from', async () => {
    const env = await api.start([{ text: 'ok', usage: { input_tokens: 1_000_000, output_tokens: 500_000 } }]);
    mkdirSync(path.join(api.workspace, '.xagent'), { recursive: true });
    const settings = path.join(api.workspace, '.xagent', 'settings.json');
    writeFileSync(settings, JSON.stringify({ modelPrices: { 'acme-coder-2': { input: 1, output: 4 } } }));
    const run = await runCli(['-p', 'hi', '--cwd', api.workspace, '--model', 'acme-coder-2', '--output-format', 'json'], { env });
    expect(run.code, run.stderr).toBe(0);
    const [result] = jsonLines(run.stdout) as Array<{ total_cost_usd: number; price_source: string }>;
    // 1M input at $1 and 0.5M output at $4, plus the fake's few cache tokens.
    expect(result!.total_cost_usd).toBeCloseTo(3, 1);
    expect(result!.price_source).toBe(`settings ${settings}`);
  });

  it('an unknown price is null, and the result says how to set it', async () => {
    const env = await api.start([{ text: 'ok' }]);
    const run = await runCli(['-p', 'hi', '--cwd', api.workspace, '--model', 'acme-coder-3', '--output-format', 'json'], { env });
    const [result] = jsonLines(run.stdout);
    expect(result).toMatchObject({
      total_cost_usd: null,
      price_source: null,
      price_help: expect.stringContaining('"modelPrices": {"acme-coder-3"'),
    });
  });
});
