import { describe, expect, it } from 'vitest';
import { summarize } from '../../bench/stats.js';

// The bench itself runs in CI through `npm run bench:smoke`, not inside `npm test`.
describe('bench statistics', () => {
  it('summarize gives the median, min and max of the samples', () => {
    expect(summarize([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, n: 3 });
    expect(summarize([4, 1, 3, 2]).median).toBe(2.5);
  });
});
