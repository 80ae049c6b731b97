/**
 * Preloaded into a benchmark's child (`node -r dist/bench/usage-probe.cjs ...`): when the process
 * exits it writes its peak RSS and CPU time to $BENCH_USAGE_FILE. Both the subject and its
 * baseline get it, so its own small cost is on both sides. CommonJS, because `--import` would
 * start the ES module loader early and cost ~30 ms of CPU.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The main thread's own CPU, from /proc (Linux; in clock ticks, 10 ms here), or null elsewhere:
 * what V8's worker threads (the optimising compiler, GC helpers) spend is the rest.
 */
function mainThreadCpuUs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
  } catch {
    return null;
  }
}

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ maxRssKb: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime, mainCpuUs: mainThreadCpuUs() }),
    );
  });
}
