/**
 * One side of row 6 in a process of its own (argv: detached|attached, bare|cli, rounds, warm-up
 * runs, measured runs): the warm-up runs compile what the measured ones run, then one JSON line
 * `{"runs": [{"wall", "cpu"}, …]}` of the measured runs goes to stdout. A side measured alone
 * pays for neither the other side's garbage nor its share of the compiler's work.
 */
import { perRound, removeBenchHome, type PerRound, type Wiring } from './inspector-runs.js';

const [side, wiring, rounds, warmup, runs] = process.argv.slice(2);
if ((side !== 'detached' && side !== 'attached') || (wiring !== 'bare' && wiring !== 'cli')) {
  process.stderr.write('usage: inspector-child detached|attached bare|cli <rounds> <warm-up runs> <runs>\n');
  process.exit(2);
}
for (let i = 0; i < Number(warmup); i++) await perRound(side, Number(rounds), wiring as Wiring);
const measured: PerRound[] = [];
for (let i = 0; i < Number(runs); i++) measured.push(await perRound(side, Number(rounds), wiring as Wiring));
removeBenchHome();
process.stdout.write(`${JSON.stringify({ runs: measured })}\n`);
