import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchScript, cliEnv, cliPath, runNode, tempWorkspace } from './child.js';
import { startFakeApi, type FakeApi } from './fake-api.js';
import { summarize, type Summary } from './stats.js';
import type { Row } from './table.js';

export const TASK_RATIO_TARGET = 2.5;
export const TASK_RSS_TARGET_MB = 70;
export const SESSION_RSS_TARGET_MB = 90;
export const ROUND_CPU_TARGET_MS = 2;

/** One child run: spawn → exit, and what it used (from usage-probe.cts). */
interface Usage {
  ms: number;
  cpuMs: number;
  /** The main thread's share of cpuMs (Linux, 10 ms resolution), or null where /proc has no answer. */
  mainCpuMs: number | null;
  rssMb: number;
}

const probe = benchScript('usage-probe').replace(/\.js$/, '.cjs');

/** Runs `node <args>` with the usage probe preloaded; fails loudly when the child does. */
async function measured(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; expect: RegExp }): Promise<Usage> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-usage-'));
  const file = path.join(dir, 'usage.json');
  try {
    const run = await runNode(['-r', probe, ...args], { cwd: options.cwd, env: { ...options.env, BENCH_USAGE_FILE: file } });
    if (run.code !== 0 || !options.expect.test(run.stdout)) throw new Error(`node ${args.join(' ')} failed (${run.code}): ${run.stderr}`);
    const usage = JSON.parse(readFileSync(file, 'utf8')) as { maxRssKb: number; cpuUs: number; mainCpuUs: number | null };
    return {
      ms: run.ms,
      cpuMs: usage.cpuUs / 1000,
      mainCpuMs: usage.mainCpuUs === null ? null : usage.mainCpuUs / 1000,
      rssMb: usage.maxRssKb / 1024,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SessionConfig {
  runs: number;
  /** Tool rounds of the session rows, ascending; 50 (else the first) is the headline. */
  rounds: number[];
}

/**
 * Benchmarks 7 and 8: a whole one-answer task (`xagent -p` spawn → exit against the fake API)
 * against `node -e 0`, and tool sessions of N `read_file` rounds against a plain node:http loop
 * doing the same requests, file reads and transcript lines (`plain-session.ts`). CPU per round is
 * (CPU of the N-round run − CPU of the one-answer run) / N, so start-up is not counted in it.
 * All kinds of run take turns in every repetition.
 * @example const rows = await sessionRows({ runs: 4, rounds: [10, 50, 200] });
 */
export async function sessionRows(config: SessionConfig): Promise<Row[]> {
  const api = await startFakeApi({ deltas: () => ['ok'], toolCall: { name: 'read_file', input: { path: 'notes.txt' } } });
  const workspace = tempWorkspace();
  writeFileSync(path.join(workspace, 'notes.txt'), 'a line of notes for the model\n'.repeat(20));
  try {
    return await measureAll(api, workspace, config);
  } finally {
    await api.close();
  }
}

async function measureAll(api: FakeApi, workspace: string, config: SessionConfig): Promise<Row[]> {
  // One XAGENT_HOME for all the xagent runs, as a user has (the warm-up runs write the code cache).
  const env = cliEnv(api.url);
  const xagent = (rounds: number) => () =>
    measured([cliPath, '-p', '--max-turns', String(rounds + 1), '--max-tool-calls', String(Math.max(rounds, 1)), `rounds ${rounds}`], {
      cwd: workspace,
      env,
      expect: /ok/,
    });
  const plain = (rounds: number) => () =>
    measured([benchScript('plain-session'), `rounds ${rounds}`], {
      cwd: workspace,
      env: { ...process.env, BENCH_API_URL: api.url, BENCH_WORKSPACE: workspace },
      expect: /ok/,
    });
  const kinds: Record<string, () => Promise<Usage>> = {
    node: () => measured(['-e', 'console.log("ok")'], { cwd: workspace, env: process.env, expect: /ok/ }),
    task: xagent(0),
    plain0: plain(0),
  };
  for (const n of config.rounds) {
    kinds[`xagent${n}`] = xagent(n);
    kinds[`plain${n}`] = plain(n);
  }
  const names = Object.keys(kinds);
  const samples: Record<string, Usage[]> = Object.fromEntries(names.map((k) => [k, []]));
  for (const name of names) await kinds[name]!(); // warm-up, not counted
  for (let i = 0; i < config.runs; i++) {
    // Rotate the order, so no kind always runs right after the same other one.
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length]!;
      samples[name]!.push(await kinds[name]!());
    }
  }
  const pick = (name: string, field: 'ms' | 'cpuMs' | 'rssMb') => summarize(samples[name]!.map((u) => u[field]));
  const cpuOf = (name: string, i: number, field: 'cpuMs' | 'mainCpuMs' = 'cpuMs') => samples[name]![i]![field] ?? Number.NaN;
  /** Per repetition: (CPU of the `long` run − CPU of the `short` run) / the rounds between them. */
  const perRound = (long: string, short: string, rounds: number, field: 'cpuMs' | 'mainCpuMs' = 'cpuMs') =>
    summarize(samples[long]!.map((_, i) => (cpuOf(long, i, field) - cpuOf(short, i, field)) / rounds));
  const sizes = [...config.rounds];
  const headline = sizes.includes(50) ? 50 : sizes[0]!;
  const task = pick('task', 'ms');
  const node = pick('node', 'ms');
  const rows: Row[] = [
    {
      name: '7. one-answer task: spawn → exit',
      unit: 'ms',
      value: task,
      baseline: { name: 'node -e 0', value: node },
      target: `≤ ${TASK_RATIO_TARGET}× node -e 0`,
      met: task.median <= TASK_RATIO_TARGET * node.median,
    },
    {
      name: '7. one-answer task: CPU time',
      unit: 'ms',
      value: pick('task', 'cpuMs'),
      baseline: { name: 'node -e 0', value: pick('node', 'cpuMs') },
    },
    rssRow('7. one-answer task: peak RSS', pick('task', 'rssMb'), { name: 'node -e 0', value: pick('node', 'rssMb') }, TASK_RSS_TARGET_MB),
    {
      name: `8. ${headline}-round session: spawn → exit`,
      unit: 'ms',
      value: pick(`xagent${headline}`, 'ms'),
      baseline: { name: 'plain node:http loop', value: pick(`plain${headline}`, 'ms') },
    },
  ];
  for (const n of sizes) {
    const cpu = perRound(`xagent${n}`, 'task', n);
    rows.push({
      name: `8. CPU per tool round, ${n} rounds`,
      unit: 'ms',
      value: cpu,
      baseline: { name: 'plain node:http loop', value: perRound(`plain${n}`, 'plain0', n) },
      target: `< ${ROUND_CPU_TARGET_MS} ms`,
      met: cpu.median < ROUND_CPU_TARGET_MS,
    });
  }
  // The main thread's part of a round, for the two longest sessions (the /proc figure is in 10 ms
  // steps, too coarse for short ones): the rest of a round's CPU is V8 optimising the round's code
  // on its worker threads (bench/README.md).
  if (samples.task!.every((u) => u.mainCpuMs !== null)) {
    for (const n of sizes.slice(-2)) {
      rows.push({
        name: `8. main-thread CPU per tool round, ${n} rounds`,
        unit: 'ms',
        value: perRound(`xagent${n}`, 'task', n, 'mainCpuMs'),
        baseline: { name: 'plain node:http loop', value: perRound(`plain${n}`, 'plain0', n, 'mainCpuMs') },
      });
    }
  }
  if (sizes.length >= 2) {
    // Flat means a late round costs what an early one does: compare the marginal CPU of the last
    // stretch of rounds with that of the stretch before it (one-time costs fall in the first).
    const [a, b, c] = sizes.length >= 3 ? sizes.slice(-3) : [0, ...sizes];
    const before = (i: number) => (a === 0 ? cpuOf('task', i) : cpuOf(`xagent${a}`, i));
    const ratio = summarize(
      samples[`xagent${c}`]!.map(
        (_, i) => (cpuOf(`xagent${c}`, i) - cpuOf(`xagent${b}`, i)) / (c! - b!) / ((cpuOf(`xagent${b}`, i) - before(i)) / (b! - a!)),
      ),
    );
    rows.push({
      name: `8. CPU per round, rounds ${b}→${c} / ${a}→${b}`,
      unit: '×',
      value: ratio,
      target: '≤ 1.25× (flat)',
      met: ratio.median <= 1.25,
    });
  }
  rows.push(
    rssRow(
      `8. ${headline}-round session: peak RSS`,
      pick(`xagent${headline}`, 'rssMb'),
      { name: 'plain node:http loop', value: pick(`plain${headline}`, 'rssMb') },
      SESSION_RSS_TARGET_MB,
    ),
  );
  return rows;
}

function rssRow(name: string, value: Summary, baseline: { name: string; value: Summary }, targetMb: number): Row {
  return { name, unit: 'MB', value, baseline, target: `< ${targetMb} MB`, met: value.median < targetMb };
}
