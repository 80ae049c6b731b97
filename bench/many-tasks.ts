import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchScript, cliEnv, cliPath, runNode, tempWorkspace } from './child.js';
import { startFakeApi } from './fake-api.js';
import { interleave, summarize } from './stats.js';
import type { Row } from './table.js';

/** Sizes of rows 13 and 14. `npm run bench -- --tasks 10000` sets `tasks`. */
export interface ManyTasksConfig {
  runs: number;
  /** Library tasks at once (row 13). */
  tasks: number;
  /** Tool rounds per task (then the answer). */
  rounds: number;
  /** How late the fake answers each request. */
  latencyMs: number;
  /** Row 14: `xagent batch` over this many tasks, `concurrency` at a time. */
  batch: { tasks: number; concurrency: number; rounds: number };
}

interface ChildFigures {
  wallMs: number;
  firstDoneMs: number;
  cpuMs: number;
  peakRssMb: number;
  maxStallMs: number;
  failed: number;
  /** Why the tasks that failed failed, and how many of each. */
  failures?: Record<string, number>;
}

const CPU_RATIO_TARGET = 1.5;
const STALL_TARGET_MS = 200;
const RSS_TARGET_10K_MB = 2048;

/**
 * Rows 13 and 14: many tasks in one process, against the bench's fake API in this process.
 * 13: `tasks` library tasks at once (`query()`, sessions recorded), each `rounds` read_file rounds,
 * the fake answering `latencyMs` late; CPU per round, peak RSS, the longest event-loop stall, the
 * first and the last task's end; baseline: as many plain node:http loops at once in one process
 * doing the same requests, reads and transcript lines. 14: `xagent batch` tasks per minute; baseline:
 * the plain loops, as many at a time.
 */
export async function manyTasksRows(config: ManyTasksConfig): Promise<Row[]> {
  const api = await startFakeApi({
    deltas: () => ['done'],
    toolCall: { name: 'read_file', input: { path: 'notes.txt' } },
    latencyMs: config.latencyMs,
  });
  try {
    const figures: Record<'plain' | 'xagent', ChildFigures[]> = { plain: [], xagent: [] };
    const child = async (mode: 'plain' | 'xagent', tasks: number, rounds: number, concurrency?: number): Promise<ChildFigures> => {
      const env = {
        ...cliEnv(api.url),
        BENCH_API_URL: api.url,
        MODE: mode,
        TASKS: String(tasks),
        ROUNDS: String(rounds),
        ...(concurrency ? { CONCURRENCY: String(concurrency) } : {}),
      };
      const run = await runNode(['--max-old-space-size=4096', benchScript('many-tasks-child')], { env });
      if (run.code !== 0) throw new Error(`many-tasks-child (${mode}) exited ${run.code}: ${run.stderr.slice(-2000)}`);
      const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as ChildFigures;
      if (result.failed > 0)
        throw new Error(
          `many-tasks-child (${mode}): ${result.failed} task(s) did not end with final_answer: ${JSON.stringify(result.failures)}`,
        );
      return result;
    };
    const keep = (mode: 'plain' | 'xagent') => async () => {
      const result = await child(mode, config.tasks, config.rounds);
      figures[mode].push(result);
      return result.cpuMs;
    };
    await interleave(config.runs, keep('plain'), keep('xagent'), { warmup: false });
    const requests = config.tasks * (config.rounds + 1);
    const of = (mode: 'plain' | 'xagent', pick: (f: ChildFigures) => number) => summarize(figures[mode].map(pick));
    const cpuPerRound = (f: ChildFigures) => f.cpuMs / requests;
    const cpu = { value: of('xagent', cpuPerRound), baseline: of('plain', cpuPerRound) };
    const rss = of('xagent', (f) => f.peakRssMb);
    const stall = of('xagent', (f) => f.maxStallMs);
    const n = config.tasks.toLocaleString('en');
    const rows: Row[] = [
      {
        name: `13. CPU per round, ${n} library tasks at once`,
        unit: 'ms',
        value: cpu.value,
        baseline: { name: 'plain loops', value: cpu.baseline },
        target: `≤ ${CPU_RATIO_TARGET}× plain`,
        met: cpu.value.median <= CPU_RATIO_TARGET * cpu.baseline.median,
      },
      {
        name: `13. peak RSS, ${n} library tasks at once`,
        unit: 'MB',
        value: rss,
        baseline: { name: 'plain loops', value: of('plain', (f) => f.peakRssMb) },
        ...(config.tasks >= 10_000 ? { target: '< 2 GB', met: rss.median < RSS_TARGET_10K_MB } : {}),
      },
      {
        name: `13. longest event-loop stall, ${n} tasks`,
        unit: 'ms',
        value: stall,
        baseline: { name: 'plain loops', value: of('plain', (f) => f.maxStallMs) },
        target: `< ${STALL_TARGET_MS} ms`,
        met: stall.median < STALL_TARGET_MS,
      },
      {
        name: `13. first task done (${(config.rounds + 1) * config.latencyMs} ms of model time)`,
        unit: 'ms',
        value: of('xagent', (f) => f.firstDoneMs),
        baseline: { name: 'plain loops', value: of('plain', (f) => f.firstDoneMs) },
      },
      {
        name: `13. all ${n} tasks done`,
        unit: 'ms',
        value: of('xagent', (f) => f.wallMs),
        baseline: { name: 'plain loops', value: of('plain', (f) => f.wallMs) },
      },
    ];

    // Row 14: the batch command, a process of its own, against the same fake.
    const { tasks, concurrency, rounds } = config.batch;
    const workspace = tempWorkspace();
    writeFileSync(path.join(workspace, 'notes.txt'), 'a line of notes\n'.repeat(20));
    const file = path.join(workspace, 'tasks.jsonl');
    writeFileSync(
      file,
      `${Array.from({ length: tasks }, (_, i) => JSON.stringify({ prompt: `rounds ${rounds} (task ${i})` })).join('\n')}\n`,
    );
    const perMinute = (ms: number) => (tasks / ms) * 60_000;
    let batchRun = 0;
    const { baseline, subject } = await interleave(
      config.runs,
      async () => perMinute((await child('plain', tasks, rounds, concurrency)).wallMs),
      async () => {
        const out = path.join(workspace, `results-${batchRun++}.jsonl`);
        const args = [
          cliPath,
          'batch',
          file,
          '--concurrency',
          String(concurrency),
          '--out',
          out,
          '--cwd',
          workspace,
          '--allow',
          'read_file',
        ];
        const run = await runNode(args, { env: cliEnv(api.url) });
        if (run.code !== 0) throw new Error(`xagent batch exited ${run.code}: ${run.stderr.slice(-2000)}`);
        return perMinute(run.ms);
      },
      { warmup: false },
    );
    rows.push({
      name: `14. xagent batch, ${tasks.toLocaleString('en')} tasks, ${concurrency} at once`,
      unit: '/min',
      value: summarize(subject),
      baseline: { name: 'plain loops', value: summarize(baseline) },
    });
    return rows;
  } finally {
    await api.close();
  }
}
