/**
 * Preloaded into a benchmark's child (`node -r dist/bench/usage-probe.cjs ...`): when the process
 * exits it writes its peak RSS and CPU time to $BENCH_USAGE_FILE. Both the subject and its
 * baseline get it, so its own small cost is on both sides. CommonJS, because `--import` would
 * start the ES module loader early and cost ~30 ms of CPU.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssKb: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime }));
  });
}
