import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { submitTask, waitForTask } from '../src/restate/ingress-client.js';
import { taskSpecOf } from '../src/restate/task-spec.js';
import { cliEnv, cliPath, runNode, tempWorkspace } from './child.js';
import { startFakeApi } from './fake-api.js';
import { freePort, restateBinary, startRestateServer, startWorker, type Worker } from './restate-server.js';
import { summarize } from './stats.js';
import type { Row } from './table.js';

export interface RestateBenchConfig {
  /** Repetitions of each measurement. */
  runs: number;
  /** Tool rounds of the task whose per-round cost is compared with -p. */
  rounds: number;
  /** Tasks submitted at once to one worker, and the tool rounds of each. */
  concurrent: number;
  concurrentRounds: number;
}

const ROW = '10. durable task (Restate)';

/**
 * Benchmark 10 (issue 29): a task run through a real Restate server and one worker against the
 * same task run with `-p`, per tool round (start-up cancels out: (time of N rounds − time of a
 * one-answer task) / N, each way, interleaved); then `concurrent` tasks submitted at once to one
 * worker: tasks per minute, and the worker's resident memory per task in flight (its peak RSS
 * while they run, sampled every 20 ms, less its RSS before, over the number of tasks).
 * @example const rows = await restateRows({ runs: 3, rounds: 20, concurrent: 50, concurrentRounds: 10 });
 */
export async function restateRows(config: RestateBenchConfig): Promise<Row[]> {
  const binary = restateBinary();
  if ('missing' in binary) return [{ name: `${ROW}: per round`, unit: 'ms', value: summarize([0]), skipped: binary.missing }];
  const api = await startFakeApi({ deltas: () => ['ok'], toolCall: { name: 'read_file', input: { path: 'notes.txt' } } });
  const workspace = tempWorkspace();
  writeFileSync(path.join(workspace, 'notes.txt'), 'a line of notes for the model\n'.repeat(20));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-restate-'));
  const env = cliEnv(api.url);
  const server = await startRestateServer(binary.path, path.join(dir, 'data'));
  let worker: Worker | undefined;
  try {
    const workerEnv = Object.fromEntries(
      Object.entries({ ...env, XAGENT_TRUST: '1' }).filter((e): e is [string, string] => e[1] !== undefined),
    );
    worker = await startWorker({ cli: cliPath, port: await freePort(), admin: server.admin, env: workerEnv });
    return await measure(config, { workspace, env, ingress: server.ingress, worker });
  } finally {
    await worker?.stop();
    await server.stop();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function measure(
  config: RestateBenchConfig,
  { workspace, env, ingress, worker }: { workspace: string; env: NodeJS.ProcessEnv; ingress: string; worker: Worker },
): Promise<Row[]> {
  const limits = (rounds: number) => ({ maxTurns: String(rounds + 1), maxToolCalls: String(Math.max(rounds, 1)) });
  const durable = async (rounds: number) => {
    const started = performance.now();
    const id = await submitTask(ingress, taskSpecOf(`rounds ${rounds}`, { cwd: workspace, ...limits(rounds) }, workspace, {}));
    const result = await waitForTask(ingress, id);
    if (result.reason !== 'final_answer') throw new Error(`durable task ${id} ended ${result.reason}`);
    return performance.now() - started;
  };
  const printed = async (rounds: number) => {
    const { maxTurns, maxToolCalls } = limits(rounds);
    const run = await runNode([cliPath, '-p', '--max-turns', maxTurns, '--max-tool-calls', maxToolCalls, `rounds ${rounds}`], {
      cwd: workspace,
      env,
    });
    if (run.code !== 0) throw new Error(`xagent -p failed (${run.code}): ${run.stderr}`);
    return run.ms;
  };
  await durable(1); // warm-up: the worker's first task loads the engine
  await printed(1);
  const durablePerRound: number[] = [];
  const printedPerRound: number[] = [];
  for (let i = 0; i < config.runs; i++) {
    printedPerRound.push(((await printed(config.rounds)) - (await printed(0))) / config.rounds);
    durablePerRound.push(((await durable(config.rounds)) - (await durable(0))) / config.rounds);
  }
  const perMinute: number[] = [];
  const perTaskMb: number[] = [];
  for (let i = 0; i < config.runs; i++) {
    const before = worker.memory()?.rssMb ?? Number.NaN;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, worker.memory()?.rssMb ?? Number.NaN);
    }, 20);
    const started = performance.now();
    try {
      await Promise.all(Array.from({ length: config.concurrent }, () => durable(config.concurrentRounds)));
    } finally {
      clearInterval(sampler);
    }
    perMinute.push(config.concurrent / ((performance.now() - started) / 60_000));
    perTaskMb.push((peak - before) / config.concurrent);
  }
  const rows: Row[] = [
    {
      name: `${ROW}: per tool round, ${config.rounds} rounds`,
      unit: 'ms',
      value: summarize(durablePerRound),
      baseline: { name: 'xagent -p per round', value: summarize(printedPerRound) },
      // Issue 41's target: a journaled round costs at most half as much again as a local one.
      target: '<= 1.5x xagent -p per round',
      met: summarize(durablePerRound).median <= 1.5 * summarize(printedPerRound).median,
    },
    { name: `${ROW}: tasks per minute, ${config.concurrent} at once on one worker`, unit: '/min', value: summarize(perMinute) },
  ];
  if (perTaskMb.every(Number.isFinite))
    rows.push({ name: `${ROW}: worker RSS per task in flight (${config.concurrent} at once)`, unit: 'MB', value: summarize(perTaskMb) });
  return rows;
}
