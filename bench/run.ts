/** `npm run bench`: builds (via the npm script), runs every benchmark and prints one table. */
import os from 'node:os';
import { engineOverheadRows } from './engine-overhead.js';
import { inspectorRows } from './inspector.js';
import { manyTasksRows } from './many-tasks.js';
import { sessionRows } from './session.js';
import { subagentRows } from './subagents.js';
import { FULL, runBenchmarks } from './suite.js';
import { formatTable } from './table.js';
import type { Row } from './table.js';

const started = performance.now();
// `npm run bench -- --tasks 10000`: row 13 at ten thousand tasks; `--runs N` sets rows 13-14's runs.
const flag = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const tasks = process.argv.includes('--tasks') ? Number(flag('--tasks')) : FULL.manyTasks.tasks;
const runs = process.argv.includes('--runs') ? Number(flag('--runs')) : FULL.manyTasks.runs;
const config = { ...FULL, manyTasks: { ...FULL.manyTasks, tasks, runs } };
// `--only-<rows>` runs those rows alone (a shared machine need not run the whole table for one figure).
const only: Record<string, () => Promise<Row[]>> = {
  '--only-engine': async () => (await engineOverheadRows(config.engine)).rows,
  '--only-inspector': () => inspectorRows(config.inspector),
  '--only-sessions': () => sessionRows(config.session),
  '--only-many-tasks': () => manyTasksRows(config.manyTasks),
  // Issue 36: XAGENT_BENCH_BASELINE=<another build's dist> puts that build's CPU per round beside this one's.
  '--only-subagents': () => subagentRows({ rounds: 1000, runs: 5 }),
};
const chosen = Object.keys(only).filter((name) => process.argv.includes(name));
const rows: Row[] = [];
if (chosen.length === 0) rows.push(...(await runBenchmarks(config, (name) => process.stderr.write(`bench: ${name}...\n`))));
for (const name of chosen) rows.push(...(await (only[name] as () => Promise<Row[]>)()));
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`xagent benchmarks: node ${process.version}, ${os.cpus().length} × ${cpu}, ${os.platform()} ${os.release()}`);
console.log('Each figure: median (min, max) of interleaved runs; ratio = median / baseline median from the same run.\n');
console.log(formatTable(rows));
const missed = rows.filter((r) => r.met === false).length;
console.log(
  `\n${missed === 0 ? 'All targets met.' : `${missed} target(s) missed (findings, see bench/README.md).`} Took ${((performance.now() - started) / 1000).toFixed(0)} s.`,
);
