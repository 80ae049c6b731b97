import { describe, expect, it } from 'vitest';
import { costUsd, describePrice, parseModelPrices, priceOf } from '../../src/model/cost.js';

const usage = {
  input_tokens: 1_000_000,
  output_tokens: 1_000_000,
  cache_creation_input_tokens: 1_000_000,
  cache_read_input_tokens: 1_000_000,
};

describe('model prices: settings first, then published prices with their source', () => {
  it('a published price names the page that published it', () => {
    expect(priceOf('claude-sonnet-5-5')?.source).toMatch(/^published: https:\/\/platform\.claude\.com\/docs\/en\/models\/sonnet-5-5/);
    expect(priceOf('claude-sonnet-4-5-20250929')?.source).toMatch(/^published: https:\/\/www\.anthropic\.com\/pricing/);
  });

  it('an unknown model has no price, and says how to set one', () => {
    expect(priceOf('acme-coder-2')).toBeNull();
    expect(costUsd('acme-coder-2', usage)).toBeNull();
    expect(describePrice('acme-coder-2')).toBe(
      'price of acme-coder-2 unknown: set it in settings: "modelPrices": {"acme-coder-2": {"input": <USD per million tokens>, "output": <USD per million tokens>}}',
    );
  });

  it('modelPrices from settings prices any model, and overrides a published price; cache prices default to 1.25x and 0.1x input', () => {
    const { prices, problems } = parseModelPrices(
      { 'acme-coder-2': { input: 1, output: 2 }, 'claude-sonnet-5-5': { input: 10, output: 20, cacheWrite: 0, cacheRead: 0 } },
      '/home/me/.xagent/settings.json',
    );
    expect(problems).toEqual([]);
    expect(costUsd('acme-coder-2', usage, prices)).toBe(1 + 2 + 1.25 + 0.1);
    expect(costUsd('claude-sonnet-5-5', usage, prices)).toBe(30);
    expect(priceOf('acme-coder-2', prices)?.source).toBe('settings /home/me/.xagent/settings.json');
    expect(describePrice('acme-coder-2', prices)).toBe('$1 / $2 per million tokens in/out (settings /home/me/.xagent/settings.json)');
  });

  it('a malformed entry is skipped with a line that says why', () => {
    const { prices, problems } = parseModelPrices({ bad: { input: 'three' }, good: { input: 1, output: 1 } }, 'f.json');
    expect(Object.keys(prices)).toEqual(['good']);
    expect(problems).toEqual(['"modelPrices.bad" ignored: "input" and "output" must be numbers (USD per million tokens)']);
    expect(parseModelPrices([1], 'f.json').problems[0]).toMatch(/must be an object/);
  });
});
