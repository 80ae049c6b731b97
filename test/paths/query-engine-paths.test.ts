import { describe, expect, it } from 'vitest';
import { Coverage } from './coverage.js';
import { generatePaths, pathName } from '../../src/paths/generate-paths.js';
import { statePath } from '../../src/engine/step-adapter.js';
import { replay } from './replay.js';

/**
 * Model-based tests of the engine chart: one path per edge of its routing state space from each
 * way a task can start (maxTurns 2, maxToolCalls 2), each replayed against a real actor with the model's, the
 * oracle's and the engine's invariants checked at every step; then coverage of the chart.
 */
/** Variants left out for this run (PATHS_DROP=a,b): the coverage check must then fail. */
const dropped = new Set((process.env.PATHS_DROP ?? '').split(',').filter(Boolean));

describe('generated paths through the query engine chart', () => {
  const paths = generatePaths({ drop: dropped });
  const coverage = new Coverage();

  it('generates paths that end in every stop reason', () => {
    const ends = new Set(paths.map((p) => p.state.context.stopReason).filter((r) => r !== null));
    expect(paths.length).toBeGreaterThan(20);
    if (dropped.size === 0) expect(ends.size).toBe(8);
  });

  for (const path of paths) {
    it(`keeps the invariants on: ${pathName(path)} => ${statePath(path.state.value)}${
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
