/** Median, min and max of repeated measurements: how every figure in the table is reported. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  /** How many samples the figure is made of. */
  n: number;
}

/**
 * Summarises samples; an empty list is an error (a benchmark that measured nothing).
 * @example summarize([3, 1, 2]) // { median: 2, min: 1, max: 3, n: 3 }
 */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('summarize: no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, n: sorted.length };
}

/** Milliseconds from a `performance.now()` reading to now. */
export function msSince(start: number): number {
  return performance.now() - start;
}

/**
 * Runs baseline and subject alternately, `runs` times each, so that the machine's slow moments
 * hit both alike. A warm-up pair runs first and is not counted.
 * @example const { baseline, subject } = await interleave(5, () => plainLoop(1000), () => engineLoop(1000));
 */
export async function interleave(
  runs: number,
  baseline: () => Promise<number>,
  subject: () => Promise<number>,
  options: { warmup?: boolean } = {},
): Promise<{ baseline: number[]; subject: number[] }> {
  if (options.warmup !== false) {
    await baseline();
    await subject();
  }
  const result = { baseline: [] as number[], subject: [] as number[] };
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first, so neither always runs right after the other's garbage.
    if (i % 2 === 0) {
      result.baseline.push(await baseline());
      result.subject.push(await subject());
    } else {
      result.subject.push(await subject());
      result.baseline.push(await baseline());
    }
  }
  return result;
}
