import { describe, expect, it } from 'vitest';
import { Coverage } from './coverage.js';
import { dropped } from './engine-model.js';
import { generatePaths } from './generate-paths.js';
import { pathName, replay } from './replay.js';

/**
 * Model-based tests of the engine chart: one shortest path to every distinct routing state
 * (maxTurns 2, maxToolCalls 2), each replayed against a real actor with the model's, the
 * oracle's and the engine's invariants checked at every step; then coverage of the chart.
 */
describe('generated paths through the query engine chart', () => {
  const paths = generatePaths();
  const coverage = new Coverage();

  it('generates paths that end in every stop reason', () => {
    const ends = new Set(paths.map((p) => p.state.context.stopReason).filter((r) => r !== null));
    expect(paths.length).toBeGreaterThan(20);
    if (dropped.size === 0) expect(ends.size).toBe(8);
  });

  for (const path of paths) {
    it(`keeps the invariants on: ${pathName(path)} => ${String(path.state.value)}${
      path.state.context.stopReason ? `(${path.state.context.stopReason})` : ''
    }`, async () => {
      await replay(path, coverage);
    });
  }

  it('covers every state, transition, guard outcome and stop reason of the chart', () => {
    console.log(`${coverage.table(paths.length)}${dropped.size ? `\n\nleft out (PATHS_DROP): ${[...dropped].join(', ')}` : ''}`);
    const missing = coverage.uncovered();
    expect({ ...missing, variants: missing.variants.filter((v) => !dropped.has(v)) }).toEqual({
      states: [],
      transitions: [],
      guardOutcomes: [],
      reasons: [],
      outcomes: [],
      variants: [],
    });
  });
});
