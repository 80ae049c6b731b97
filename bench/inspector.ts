import { benchScript, runNode } from './child.js';
import { attachedPerRound, detachedPerRound, type PerRound, type Wiring } from './inspector-runs.js';
import { interleave, summarize, type Summary } from './stats.js';
import type { Row } from './table.js';

export const INSPECTOR_TARGET_RATIO = 1.5;
/** Issue 40: the inspector attached within 1.3× of detached, in CPU time. */
export const INSPECTOR_CPU_TARGET_RATIO = 1.3;

export interface InspectorConfig {
  rounds: number;
  /** Interleaved pairs of runs in this process (the first two lines, no session). */
  runs: number;
  /** Each side in a process of its own: `sets` pairs of child processes, each `warmup` unmeasured runs then `runs` measured ones. */
  processes: { sets: number; warmup: number; runs: number };
}

/** One side's measured runs, in a child process of its own (inspector-child.ts). */
async function childRuns(
  side: 'detached' | 'attached',
  wiring: Wiring,
  rounds: number,
  config: InspectorConfig['processes'],
): Promise<PerRound[]> {
  const child = await runNode([benchScript('inspector-child'), side, wiring, String(rounds), String(config.warmup), String(config.runs)]);
  if (child.code !== 0) throw new Error(`inspector child (${side}, ${wiring}) exited ${child.code}: ${child.stderr}`);
  return (JSON.parse(child.stdout) as { runs: PerRound[] }).runs;
}

/** CPU per round of each side measured in processes of their own, the two sides' processes alternating. */
async function apart(
  wiring: Wiring,
  rounds: number,
  config: InspectorConfig['processes'],
): Promise<{ detached: Summary; attached: Summary }> {
  const runs = { detached: [] as number[], attached: [] as number[] };
  const side = (name: 'detached' | 'attached') => async () => {
    runs[name].push(...(await childRuns(name, wiring, rounds, config)).map((run) => run.cpu));
    return 0;
  };
  // Each child warms itself up: no warm-up pair of processes.
  await interleave(config.sets, side('detached'), side('attached'), { warmup: false });
  return { detached: summarize(runs.detached), attached: summarize(runs.attached) };
}

/**
 * Benchmark 6: the engine's per-round cost with the live inspector and a connected client, against
 * the engine with no inspector. The first two lines are the first measure: both sides take turns in
 * this process, with no session record; wall time (the client's process competes for the cores) and
 * this process's CPU time. The last two give each side processes of its own, warmed up, in CPU time:
 * with no session, and as a CLI user runs a task (`xagent -p` and `xagent -p --inspect` with a page
 * open: the session written, the key redacted), which carries issue 40's target (bench/README.md says why).
 * @example const rows = await inspectorRows({ rounds: 1000, runs: 5, processes: { sets: 3, warmup: 4, runs: 4 } });
 */
export async function inspectorRows(options: InspectorConfig): Promise<Row[]> {
  const detached: PerRound[] = [];
  const attached: PerRound[] = [];
  await interleave(
    options.runs,
    async () => {
      detached.push(await detachedPerRound(options.rounds, 'bare'));
      return 0;
    },
    async () => {
      attached.push(await attachedPerRound(options.rounds, 'bare'));
      return 0;
    },
  );
  // The warm-up pair is not counted.
  const measured = (runs: PerRound[], field: keyof PerRound) => summarize(runs.slice(-options.runs).map((run) => run[field]));
  const wall = measured(attached, 'wall');
  const wallBaseline = measured(detached, 'wall');
  const bare = await apart('bare', options.rounds, options.processes);
  const cli = await apart('cli', options.rounds, options.processes);
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
      value: measured(attached, 'cpu'),
      baseline: { name: 'no inspector', value: measured(detached, 'cpu') },
    },
    {
      name: `6. engine CPU per round, attached, own processes`,
      unit: 'µs',
      value: bare.attached,
      baseline: { name: 'no inspector', value: bare.detached },
    },
    {
      name: `6. -p CPU per round (session written), attached, own processes`,
      unit: 'µs',
      value: cli.attached,
      baseline: { name: '-p without --inspect', value: cli.detached },
      target: `≤ ${INSPECTOR_CPU_TARGET_RATIO}× detached`,
      met: cli.attached.median <= INSPECTOR_CPU_TARGET_RATIO * cli.detached.median,
    },
  ];
}
