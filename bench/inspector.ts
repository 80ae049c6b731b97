import { createHistory } from '../src/inspector/history.js';
import { liveFeed } from '../src/inspector/live-feed.js';
import { startInspectorServer } from '../src/inspector/server.js';
import { benchScript, runNode } from './child.js';
import { engineRun } from './engine-run.js';
import { roundKit, roundsModel } from './round-fixtures.js';
import { interleave, summarize } from './stats.js';
import type { Row } from './table.js';

export const INSPECTOR_TARGET_RATIO = 1.5;
/** Issue 40: the inspector attached within 1.3× of detached, in CPU time. */
export const INSPECTOR_CPU_TARGET_RATIO = 1.3;
const kit = roundKit();

/** Resolves when `predicate` holds for the output so far, or rejects after `ms`. */
function waitFor(output: () => string, predicate: (text: string) => boolean, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = performance.now() + ms;
    const poll = () => {
      if (predicate(output())) return resolve();
      if (performance.now() > deadline) return reject(new Error(`inspector client: ${what} did not arrive in ${ms} ms`));
      setTimeout(poll, 5);
    };
    poll();
  });
}

/** Wall and CPU time per round of one run, in µs. */
interface PerRound {
  wall: number;
  cpu: number;
}

/** This process's CPU time (user + system), in µs: the client, in its own process, is not in it. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** One engine run with no inspector. */
async function detachedPerRound(rounds: number): Promise<PerRound> {
  const [start, cpu] = [performance.now(), cpuNow()];
  await engineRun({ ...kit, model: roundsModel(rounds), rounds });
  return { wall: ((performance.now() - start) * 1000) / rounds, cpu: (cpuNow() - cpu) / rounds };
}

/**
 * One engine run wired to the live inspector as `xagent --inspect` wires it (history, live feed,
 * server), with a client process connected to the event stream. Only the run is timed (its CPU
 * until the client has the result record); the client must receive the result, or the run does not count.
 */
async function attachedPerRound(rounds: number): Promise<PerRound> {
  const history = createHistory({ secrets: [] });
  const feed = liveFeed(history, { sessionId: 'bench', limits: { maxTurns: rounds + 2, maxToolCalls: rounds + 1, timeoutMs: 3_600_000 } });
  const server = await startInspectorServer({ history, chart: () => null });
  let output = '';
  const client = runNode([benchScript('sse-client'), String(server.port), server.token], { onStdout: (chunk) => (output += chunk) });
  try {
    await waitFor(
      () => output,
      (text) => text.includes('connected'),
      10_000,
      'the history event',
    );
    const [start, cpu] = [performance.now(), cpuNow()];
    await engineRun({ ...kit, model: roundsModel(rounds), rounds, observe: feed, onEvidence: feed.evidence });
    const wall = ((performance.now() - start) * 1000) / rounds;
    await waitFor(
      () => output,
      (text) => text.includes('result'),
      30_000,
      'the result record',
    );
    return { wall, cpu: (cpuNow() - cpu) / rounds };
  } finally {
    await server.close();
    await client;
  }
}

/**
 * Benchmark 6: the engine's per-round cost with the live inspector and a connected client,
 * against the engine with no inspector, interleaved: wall time (the client's process competes for
 * the cores) and this process's CPU time (steadier on a shared machine).
 * @example const rows = await inspectorRows({ rounds: 1000, runs: 5 });
 */
export async function inspectorRows(options: { rounds: number; runs: number }): Promise<Row[]> {
  const detached: PerRound[] = [];
  const attached: PerRound[] = [];
  await interleave(
    options.runs,
    async () => (detached.push(await detachedPerRound(options.rounds)), 0),
    async () => (attached.push(await attachedPerRound(options.rounds)), 0),
  );
  // The warm-up pair is not counted.
  const measured = (runs: PerRound[], field: keyof PerRound) => summarize(runs.slice(-options.runs).map((run) => run[field]));
  const wall = measured(attached, 'wall');
  const wallBaseline = measured(detached, 'wall');
  const cpu = measured(attached, 'cpu');
  const cpuBaseline = measured(detached, 'cpu');
  return [
    {
      name: `6. engine per round, inspector client attached`,
      unit: 'µs',
      value: wall,
      baseline: { name: 'no inspector', value: wallBaseline },
      target: `≤ ${INSPECTOR_TARGET_RATIO}× detached`,
      met: wall.median <= INSPECTOR_TARGET_RATIO * wallBaseline.median,
    },
    {
      name: `6. engine CPU per round, inspector client attached`,
      unit: 'µs',
      value: cpu,
      baseline: { name: 'no inspector', value: cpuBaseline },
      target: `≤ ${INSPECTOR_CPU_TARGET_RATIO}× detached`,
      met: cpu.median <= INSPECTOR_CPU_TARGET_RATIO * cpuBaseline.median,
    },
  ];
}
