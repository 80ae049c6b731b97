import { cliEnv, cliPath, runNode, tempWorkspace } from './child.js';
import { startFakeApi } from './fake-api.js';
import { interleave, summarize } from './stats.js';
import type { Row } from './table.js';

/** Issue 17: ratios to `node -e 0` from the same run (they replaced < 120 ms and < 250 ms). */
export const VERSION_RATIO_TARGET = 1.3;
export const FIRST_REQUEST_RATIO_TARGET = 2;

async function nodeNothing(): Promise<number> {
  return (await runNode(['-e', '0'])).ms;
}

async function version(): Promise<number> {
  const run = await runNode([cliPath, '--version']);
  if (run.code !== 0 || !/\d+\.\d+\.\d+/.test(run.stdout)) throw new Error(`xagent --version failed (${run.code}): ${run.stderr}`);
  return run.ms;
}

/**
 * Benchmark 3: `xagent --version` from spawn to exit, and `xagent -p` from spawn to the fake API
 * receiving its POST, with the code cache an earlier run wrote and without (a first run); each
 * against `node -e 0` (spawn to exit), interleaved.
 * @example const rows = await coldStartRows({ runs: 10 });
 */
export async function coldStartRows(options: { runs: number }): Promise<Row[]> {
  const v = await interleave(options.runs, nodeNothing, version);
  const api = await startFakeApi({ deltas: () => ['ok'] });
  const workspace = tempWorkspace();
  // One XAGENT_HOME for the whole row, as a user has: the warm-up run writes the core's code
  // cache there (src/cli/compiled-core.ts) and the measured runs read it. The first run after an
  // install or an upgrade has none: the next row, each run with a home of its own.
  const home = cliEnv(api.url);
  const firstRequestWith = (env: () => NodeJS.ProcessEnv) => async () => {
    const before = api.requestsAt.length;
    const run = await runNode([cliPath, '-p', 'say ok'], { cwd: workspace, env: env() });
    if (run.code !== 0 || api.requestsAt.length !== before + 1) {
      throw new Error(`xagent -p against the fake API failed (${run.code}): ${run.stderr}`);
    }
    return api.requestsAt[before]! - run.startedAt;
  };
  try {
    const r = await interleave(
      options.runs,
      nodeNothing,
      firstRequestWith(() => home),
    );
    const first = await interleave(
      options.runs,
      nodeNothing,
      firstRequestWith(() => cliEnv(api.url)),
    );
    const versionValue = summarize(v.subject);
    const requestValue = summarize(r.subject);
    const versionBase = summarize(v.baseline);
    const requestBase = summarize(r.baseline);
    return [
      {
        name: '3. cold start: xagent --version',
        unit: 'ms',
        value: versionValue,
        baseline: { name: 'node -e 0', value: versionBase },
        target: `≤ ${VERSION_RATIO_TARGET}× node -e 0`,
        met: versionValue.median <= VERSION_RATIO_TARGET * versionBase.median,
      },
      {
        name: '3. cold start: spawn → first model request',
        unit: 'ms',
        value: requestValue,
        baseline: { name: 'node -e 0', value: requestBase },
        target: `≤ ${FIRST_REQUEST_RATIO_TARGET}× node -e 0`,
        met: requestValue.median <= FIRST_REQUEST_RATIO_TARGET * requestBase.median,
      },
      {
        name: '3. cold start: the same, first run (no code cache yet)',
        unit: 'ms',
        value: summarize(first.subject),
        baseline: { name: 'node -e 0', value: summarize(first.baseline) },
      },
    ];
  } finally {
    await api.close();
  }
}
