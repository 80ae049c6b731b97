import { chartAloneRun } from './chart-alone.js';
import { engineRun } from './engine-run.js';
import { plainLoop } from './plain-loop.js';
import { roundKit, roundsModel } from './round-fixtures.js';
import { interleave, summarize } from './stats.js';
import type { Row } from './table.js';

export const OVERHEAD_TARGET_US = 100;

// No gc() between timed runs: a forced full collection shrinks the young generation again, and
// the next run then pays for its regrowth (per-round cost doubled at 1k rounds on this machine).

// One registry for all runs, as in a CLI process: its schema is compiled once, not once per task.
const kit = roundKit();

/** µs per round of the plain loop, for one run of `rounds` rounds. */
export async function loopPerRound(rounds: number): Promise<number> {
  const start = performance.now();
  await plainLoop({ ...kit, model: roundsModel(rounds), maxTurns: rounds + 2 });
  return ((performance.now() - start) * 1000) / rounds;
}

/** µs per round of the engine's query(), for one run of `rounds` rounds. */
export async function enginePerRound(rounds: number): Promise<number> {
  const start = performance.now();
  await engineRun({ ...kit, model: roundsModel(rounds), rounds });
  return ((performance.now() - start) * 1000) / rounds;
}

/** CPU µs per round of the chart alone (chart-alone.ts), for one run of `rounds` rounds. */
export async function chartAlonePerRound(rounds: number): Promise<number> {
  const start = process.cpuUsage();
  await chartAloneRun(rounds);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / rounds;
}

/** CPU µs per round of the engine's query() (CPU, not wall: the figure to set beside the chart alone's on a shared machine). */
export async function engineCpuPerRound(rounds: number): Promise<number> {
  const start = process.cpuUsage();
  await engineRun({ ...kit, model: roundsModel(rounds), rounds });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / rounds;
}

/** Interleaved runs of the plain loop and the engine at one size: per-round µs samples of each. */
export function measureRounds(rounds: number, runs: number): Promise<{ baseline: number[]; subject: number[] }> {
  return interleave(
    runs,
    () => loopPerRound(rounds),
    () => enginePerRound(rounds),
  );
}

/**
 * Benchmark 1: the engine's per-round cost against the plain loop, and the difference (the
 * overhead the target is about), each pair of runs taken back to back.
 * @example const rows = await engineOverheadRows({ rounds: 1000, runs: 7 });
 */
export async function engineOverheadRows(options: {
  rounds: number;
  runs: number;
}): Promise<{ rows: Row[]; samples: { baseline: number[]; subject: number[] } }> {
  const samples = await measureRounds(options.rounds, options.runs);
  const loop = summarize(samples.baseline);
  const overhead = summarize(samples.subject.map((s, i) => s - samples.baseline[i]!));
  const label = sizeLabel(options.rounds);
  // How much of the round is XState's own work for this chart, and how much src/engine adds.
  const split = await interleave(
    options.runs,
    () => engineCpuPerRound(options.rounds),
    () => chartAlonePerRound(options.rounds),
  );
  const added = summarize(split.baseline.map((engine, i) => engine - split.subject[i]!));
  return {
    samples,
    rows: [
      {
        name: `1. engine query() per round (${label} rounds)`,
        unit: 'µs',
        value: summarize(samples.subject),
        baseline: { name: 'plain loop', value: loop },
      },
      {
        name: `1. engine overhead per round (engine − loop)`,
        unit: 'µs',
        value: overhead,
        target: `< ${OVERHEAD_TARGET_US} µs`,
        met: overhead.median < OVERHEAD_TARGET_US,
      },
      {
        name: `1. the chart alone per round, CPU (XState, instant actors)`,
        unit: 'µs',
        value: summarize(split.subject),
        baseline: { name: 'engine query(), CPU', value: summarize(split.baseline) },
      },
      {
        name: `1. what src/engine adds per round, CPU (engine − chart alone)`,
        unit: 'µs',
        value: added,
      },
    ],
  };
}

export function sizeLabel(n: number): string {
  return n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n);
}
