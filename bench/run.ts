/** `npm run bench`: builds (via the npm script), runs every benchmark and prints one table. */
import os from 'node:os';
import { FULL, runBenchmarks } from './suite.js';
import { formatTable } from './table.js';

const started = performance.now();
const rows = await runBenchmarks(FULL, (name) => process.stderr.write(`bench: ${name}...\n`));
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`xagent benchmarks: node ${process.version}, ${os.cpus().length} × ${cpu}, ${os.platform()} ${os.release()}`);
console.log('Each figure: median (min, max) of interleaved runs; ratio = median / baseline median from the same run.\n');
console.log(formatTable(rows));
const missed = rows.filter((r) => r.met === false).length;
console.log(
  `\n${missed === 0 ? 'All targets met.' : `${missed} target(s) missed (findings, see bench/README.md).`} Took ${((performance.now() - started) / 1000).toFixed(0)} s.`,
);
