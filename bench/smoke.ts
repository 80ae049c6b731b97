/**
 * `npm run bench:smoke` (CI runs it after `npm test`): every benchmark runs at tiny sizes and the
 * table keeps its shape. It checks that the bench works, never a timing, and it is not part of
 * `npm test`: the bench measures a whole machine, which a test run on a laptop should not do.
 * What it expects is derived from the rows themselves, so adding a row needs no count changed here.
 */
import { runBenchmarks, type BenchConfig } from './suite.js';
import { formatTable, TABLE_COLUMNS, type Row } from './table.js';

const TINY: BenchConfig = {
  engine: { rounds: 20, runs: 1 },
  growth: { sizes: [10, 40], runs: 1, memoryRounds: 40, memoryRuns: 1 },
  coldStart: { runs: 1 },
  streaming: { runs: 1, deltas: 3, spacingMs: 5 },
  tools: { runs: 1, tree: 'src', pattern: 'export', glob: '**/*.ts' },
  inspector: { rounds: 20, runs: 1, processes: { sets: 1, warmup: 0, runs: 1 } },
  session: { runs: 1, rounds: [2, 4] },
  sandbox: { runs: 1 },
  parallel: { runs: 1, delayMs: 5, childRounds: 2 },
  restate: { runs: 1, rounds: 2, concurrent: 3, concurrentRounds: 2 },
  manyTasks: { runs: 1, tasks: 5, rounds: 1, latencyMs: 5, batch: { tasks: 4, concurrency: 2, rounds: 1 } },
};

/** What is wrong with the rows of one bench run; empty when every row is well formed. */
function rowProblems(rows: Row[], groups: string[]): string[] {
  const problems: string[] = [];
  for (const group of groups) {
    // "7-8. one-answer task and tool sessions" yields rows named "7. …" and "8. …".
    const numbers = (group.split('.')[0] ?? '').split('-');
    for (const n of numbers) if (!rows.some((r) => r.name.startsWith(`${n}. `))) problems.push(`no row ${n} from "${group}"`);
  }
  for (const row of rows) {
    if (row.skipped) continue;
    if (!(row.value.min <= row.value.median && row.value.median <= row.value.max)) problems.push(`${row.name}: min ≤ median ≤ max fails`);
    if (row.target !== undefined && typeof row.met !== 'boolean') problems.push(`${row.name}: a target without a verdict`);
  }
  const lines = formatTable(rows).split('\n');
  if (lines.length !== rows.length + 2) problems.push(`the table has ${lines.length} lines for ${rows.length} rows`);
  for (const line of lines)
    if (line.split(' | ').length !== TABLE_COLUMNS.length) problems.push(`a table line without ${TABLE_COLUMNS.length} columns: ${line}`);
  return problems;
}

const groups: string[] = [];
const rows = await runBenchmarks(TINY, (name) => {
  groups.push(name);
  process.stderr.write(`bench smoke: ${name}...\n`);
});
for (const row of rows.filter((r) => r.skipped)) process.stderr.write(`bench smoke: skipped ${row.name}: ${row.skipped}\n`);
const problems = rowProblems(rows, groups);
if (problems.length > 0) {
  process.stderr.write(`bench smoke: ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exitCode = 1;
} else process.stderr.write(`bench smoke: ${rows.length} rows from ${groups.length} benchmarks, all well formed.\n`);
