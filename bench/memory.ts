import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// `npm run bench` runs plain `node`; this is the documented way to reach gc() without --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export interface MemoryPeak {
  /** Peak heap used minus heap used at the start, in bytes. */
  heapDelta: number;
  /** Peak RSS minus RSS at the start, in bytes. */
  rssDelta: number;
}

/**
 * Collects garbage, then samples memory while `run` works (the caller calls `sample()` now and
 * then, e.g. every 64 model requests) and reports the peak above the starting point.
 * @example const peak = await measurePeak((sample) => plainLoop({ model: roundsModel(n, (k) => k % 64 || sample()), ... }));
 */
export async function measurePeak(run: (sample: () => void) => Promise<unknown>): Promise<MemoryPeak> {
  gc();
  gc();
  const start = process.memoryUsage();
  let heap = start.heapUsed;
  let rss = start.rss;
  const sample = () => {
    const now = process.memoryUsage();
    if (now.heapUsed > heap) heap = now.heapUsed;
    if (now.rss > rss) rss = now.rss;
  };
  await run(sample);
  sample();
  return { heapDelta: heap - start.heapUsed, rssDelta: rss - start.rss };
}
