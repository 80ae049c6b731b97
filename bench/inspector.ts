import { createHistory } from '../src/inspector/history.js';
import { liveFeed } from '../src/inspector/live-feed.js';
import { startInspectorServer } from '../src/inspector/server.js';
import { benchScript, runNode } from './child.js';
import { engineRun } from './engine-run.js';
import { enginePerRound } from './engine-overhead.js';
import { roundKit, roundsModel } from './round-fixtures.js';
import { interleave, summarize } from './stats.js';
import type { Row } from './table.js';

export const INSPECTOR_TARGET_RATIO = 1.5;
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

/**
 * One engine run wired to the live inspector as `xagent --inspect` wires it (history, live feed,
 * server), with a client process connected to the event stream. Only the run is timed; the
 * client must then receive the result record, or the run does not count.
 */
async function attachedPerRound(rounds: number): Promise<number> {
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
    const start = performance.now();
    await engineRun({ ...kit, model: roundsModel(rounds), rounds, observe: feed, onEvidence: feed.evidence });
    const perRound = ((performance.now() - start) * 1000) / rounds;
    await waitFor(
      () => output,
      (text) => text.includes('result'),
      30_000,
      'the result record',
    );
    return perRound;
  } finally {
    await server.close();
    await client;
  }
}

/**
 * Benchmark 6: the engine's per-round cost with the live inspector and a connected client,
 * against the engine with no inspector, interleaved.
 * @example const rows = await inspectorRows({ rounds: 1000, runs: 5 });
 */
export async function inspectorRows(options: { rounds: number; runs: number }): Promise<Row[]> {
  const samples = await interleave(
    options.runs,
    () => enginePerRound(options.rounds),
    () => attachedPerRound(options.rounds),
  );
  const value = summarize(samples.subject);
  const baseline = summarize(samples.baseline);
  return [
    {
      name: `6. engine per round, inspector client attached`,
      unit: 'µs',
      value,
      baseline: { name: 'no inspector', value: baseline },
      target: `≤ ${INSPECTOR_TARGET_RATIO}× detached`,
      met: value.median <= INSPECTOR_TARGET_RATIO * baseline.median,
    },
  ];
}
