import { engineRun } from './engine-run.js';
import { measureRounds, sizeLabel } from './engine-overhead.js';
import { measurePeak } from './memory.js';
import { plainLoop } from './plain-loop.js';
import { roundKit, roundsModel } from './round-fixtures.js';
import { summarize } from './stats.js';
import type { Row } from './table.js';

export const FLAT_TARGET = 1.25;
const MB = 1024 * 1024;
const SAMPLE_EVERY = 64;

export interface GrowthOptions {
  /** Sizes to time, e.g. [100, 10_000]; the 1k samples come from benchmark 1. */
  sizes: number[];
  runs: number;
  /** Per-round µs at the reference size (benchmark 1's samples), to compute large/reference. */
  reference: { rounds: number; subject: number[] };
  /** Rounds for the memory figures. */
  memoryRounds: number;
  memoryRuns: number;
}

async function peakOf(kind: 'loop' | 'engine', rounds: number) {
  const kit = roundKit();
  return measurePeak((sample) => {
    const model = roundsModel(rounds, (k) => k % SAMPLE_EVERY === 0 && sample());
    return kind === 'loop' ? plainLoop({ ...kit, model, maxTurns: rounds + 2 }) : engineRun({ ...kit, model, rounds });
  });
}

/**
 * Benchmark 2: per-round cost as the conversation grows (both loops keep the whole history),
 * the largest size over the reference size (flat means about 1), and peak memory.
 * @example await growthRows({ sizes: [100, 10_000], runs: 5, reference, memoryRounds: 10_000, memoryRuns: 3 });
 */
export async function growthRows(options: GrowthOptions): Promise<Row[]> {
  const rows: Row[] = [];
  const bySize = new Map<number, number[]>([[options.reference.rounds, options.reference.subject]]);
  for (const rounds of options.sizes) {
    const samples = await measureRounds(rounds, options.runs);
    bySize.set(rounds, samples.subject);
    rows.push({
      name: `2. engine per round, ${sizeLabel(rounds)} rounds`,
      unit: 'µs',
      value: summarize(samples.subject),
      baseline: { name: 'plain loop', value: summarize(samples.baseline) },
    });
  }
  const largest = Math.max(...options.sizes);
  const big = bySize.get(largest)!;
  const ref = options.reference.subject;
  // Pairs by run index; the median of the ratios is steadier than the ratio of medians on a noisy machine.
  const pairs = Math.min(big.length, ref.length);
  const ratios = Array.from({ length: pairs }, (_, i) => big[i]! / ref[i]!);
  const flat = summarize(ratios);
  rows.push({
    name: `2. per-round cost ${sizeLabel(largest)} / ${sizeLabel(options.reference.rounds)}`,
    unit: '×',
    value: flat,
    target: `≤ ${FLAT_TARGET}× (flat)`,
    met: flat.median <= FLAT_TARGET,
  });

  const loopPeaks = [];
  const enginePeaks = [];
  for (let i = 0; i < options.memoryRuns; i++) {
    loopPeaks.push(await peakOf('loop', options.memoryRounds));
    enginePeaks.push(await peakOf('engine', options.memoryRounds));
  }
  const label = sizeLabel(options.memoryRounds);
  rows.push(
    {
      name: `2. peak heap used, ${label} rounds`,
      unit: 'MB',
      value: summarize(enginePeaks.map((p) => p.heapDelta / MB)),
      baseline: { name: 'plain loop', value: summarize(loopPeaks.map((p) => p.heapDelta / MB)) },
    },
    {
      name: `2. peak RSS delta, ${label} rounds`,
      unit: 'MB',
      value: summarize(enginePeaks.map((p) => p.rssDelta / MB)),
      baseline: { name: 'plain loop', value: summarize(loopPeaks.map((p) => p.rssDelta / MB)) },
    },
  );
  return rows;
}
