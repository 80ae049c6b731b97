import { describe, expect, it } from 'vitest';
import { summarize } from '../../bench/stats.js';
import { runBenchmarks, type BenchConfig } from '../../bench/suite.js';
import { formatTable, TABLE_COLUMNS } from '../../bench/table.js';

// Tiny sizes: this checks that every benchmark runs and the table has its shape, not any timing.
// Needs the build (dist/bin/xagent.js and dist/bench/*.js), as `npm test` does first.
const TINY: BenchConfig = {
  engine: { rounds: 20, runs: 1 },
  growth: { sizes: [10, 40], runs: 1, memoryRounds: 40, memoryRuns: 1 },
  coldStart: { runs: 1 },
  streaming: { runs: 1, deltas: 3, spacingMs: 5 },
  tools: { runs: 1, tree: 'src', pattern: 'export', glob: '**/*.ts' },
  inspector: { rounds: 20, runs: 1 },
  session: { runs: 1, rounds: [2, 4] },
  sandbox: { runs: 1 },
};

describe('benchmarks', () => {
  it('summarize gives the median, min and max of the samples', () => {
    expect(summarize([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5, n: 3 });
    expect(summarize([4, 1, 3, 2]).median).toBe(2.5);
  });

  it('every benchmark runs at tiny sizes and yields one table row per figure, with a baseline and a target where the issue sets one', async () => {
    const rows = await runBenchmarks(TINY);
    const names = rows.map((r) => r.name);
    for (const prefix of ['1. ', '2. ', '3. ', '4. ', '5. ', '6. ', '7. ', '8. ', '9. '])
      expect(names.some((n) => n.startsWith(prefix))).toBe(true);
    expect(rows).toHaveLength(27);
    for (const row of rows.filter((r) => !r.skipped)) {
      expect(row.value.min).toBeLessThanOrEqual(row.value.median);
      expect(row.value.median).toBeLessThanOrEqual(row.value.max);
      if (row.target !== undefined) expect(typeof row.met).toBe('boolean');
    }
    expect(rows.filter((r) => r.target !== undefined)).toHaveLength(14);

    const lines = formatTable(rows).split('\n');
    expect(lines).toHaveLength(rows.length + 2);
    for (const line of lines) expect(line.split(' | ')).toHaveLength(TABLE_COLUMNS.length);
  }, 120_000);
});
