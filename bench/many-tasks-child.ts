/**
 * Row 13's child process: TASKS sessions of "rounds ROUNDS" at once in this one process, either as
 * xagent library tasks (`query()`, MODE=xagent, each with its session recorded under XAGENT_HOME)
 * or as plain node:http loops (MODE=plain, plain-http-session.ts), against $BENCH_API_URL. Prints
 * one JSON line: wall time, the first task's end, CPU, peak RSS, the longest event-loop stall.
 * The library is the package's entry (the bundle), as a user's program imports it.
 * BENCH_HEAP_SNAPSHOT=<file.heapsnapshot> writes a heap snapshot there when the first task ends.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { plainSession } from './plain-http-session.js';
import { repoRoot } from './child.js';

// The library as a program that imports the package gets it (package.json `exports["."]`: the
// bundle dist/lib/index.js, whose Anthropic SDK builds its headers with LiteHeaders), not the
// unbundled dist/src/lib, which gives the SDK undici's Headers: ~7 % more CPU a round here.
const { query } = (await import(pathToFileURL(path.join(repoRoot, 'dist/lib/index.js')).href)) as typeof import('../src/lib/index.js');

const tasks = Number(process.env.TASKS);
const rounds = Number(process.env.ROUNDS);
const apiUrl = process.env.BENCH_API_URL ?? '';
const workspace = mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-many-'));
writeFileSync(path.join(workspace, 'notes.txt'), 'a line of notes\n'.repeat(20));
const transcripts = mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-many-plain-'));

// Peak RSS is the kernel's (getrusage's maxrss): a sampler reading /proc every 20 ms cost the
// xagent side ~3 % of its CPU (it runs longer) and could miss a peak between samples.
const stalls = monitorEventLoopDelay({ resolution: 10 });
stalls.enable();
const rssBefore = process.memoryUsage.rss();
const cpuBefore = process.cpuUsage();
const started = performance.now();
let firstDone = 0;
let failed = 0;
const failures = new Map<string, number>();

async function xagentTask(i: number): Promise<void> {
  for await (const event of query(`rounds ${rounds} (task ${i})`, {
    cwd: workspace,
    readSettings: false,
    stderr: null,
    allow: ['read_file'],
    maxTurns: rounds + 2,
  })) {
    if (event.type === 'result' && event.reason !== 'final_answer') {
      failed++;
      const why = `${event.reason}: ${event.error?.message ?? ''}`.slice(0, 200);
      failures.set(why, (failures.get(why) ?? 0) + 1);
    }
  }
}

const one = async (i: number) => {
  if (process.env.MODE === 'plain') {
    await plainSession({ apiUrl, workspace, transcript: path.join(transcripts, `${i}.jsonl`), prompt: `rounds ${rounds} (task ${i})` });
  } else await xagentTask(i);
  if (!firstDone) {
    firstDone = performance.now() - started;
    // When the first task ends every other one is still in flight: the moment that shows what a task keeps.
    if (process.env.BENCH_HEAP_SNAPSHOT) writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
  }
};
// CONCURRENCY (the batch row's baseline): that many at a time; default all at once.
const concurrency = Number(process.env.CONCURRENCY ?? tasks);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(concurrency, tasks) }, async () => {
    while (next < tasks) await one(next++);
  }),
);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
stalls.disable();
const peakRss = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  `${JSON.stringify({
    wallMs,
    firstDoneMs: firstDone,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb: peakRss / 1024 / 1024,
    rssGrowthMb: (peakRss - rssBefore) / 1024 / 1024,
    maxStallMs: stalls.max / 1e6,
    failed,
    failures: Object.fromEntries(failures),
  })}\n`,
);
