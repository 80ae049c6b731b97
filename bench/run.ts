/** `npm run bench`: builds (via the npm script), runs every benchmark and prints one table. */
import os from 'node:os';
import { FULL, runBenchmarks } from './suite.js';
import { formatTable } from './table.js';
import { manyTasksRows } from './many-tasks.js';

const started = performance.now();
// `npm run bench -- --tasks 10000`: row 13 at ten thousand tasks; `--only-many-tasks` runs rows 13-14 alone.
const flag = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const tasks = process.argv.includes('--tasks') ? Number(flag('--tasks')) : FULL.manyTasks.tasks;
const config = { ...FULL, manyTasks: { ...FULL.manyTasks, tasks } };
const rows = process.argv.includes('--only-many-tasks')
  ? await manyTasksRows(config.manyTasks)
  : await runBenchmarks(config, (name) => process.stderr.write(`bench: ${name}...\n`));
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`xagent benchmarks: node ${process.version}, ${os.cpus().length} × ${cpu}, ${os.platform()} ${os.release()}`);
console.log('Each figure: median (min, max) of interleaved runs; ratio = median / baseline median from the same run.\n');
console.log(formatTable(rows));
const missed = rows.filter((r) => r.met === false).length;
console.log(
  `\n${missed === 0 ? 'All targets met.' : `${missed} target(s) missed (findings, see bench/README.md).`} Took ${((performance.now() - started) / 1000).toFixed(0)} s.`,
);
