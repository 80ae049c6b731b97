import { coldStartRows } from './cold-start.js';
import { engineOverheadRows } from './engine-overhead.js';
import { growthRows } from './growth.js';
import { restateRows, type RestateBenchConfig } from './restate.js';
import { sandboxRows } from './sandbox.js';
import { inspectorRows, type InspectorConfig } from './inspector.js';
import { sessionRows, type SessionConfig } from './session.js';
import { streamingRows } from './streaming.js';
import type { Row } from './table.js';
import { toolRows } from './tools.js';
import { parallelRows } from './parallel.js';
import { manyTasksRows, type ManyTasksConfig } from './many-tasks.js';

/** Sizes and repetitions of every benchmark; `npm run bench` uses FULL, the smoke test tiny ones. */
export interface BenchConfig {
  engine: { rounds: number; runs: number };
  growth: { sizes: number[]; runs: number; memoryRounds: number; memoryRuns: number };
  coldStart: { runs: number };
  streaming: { runs: number; deltas: number; spacingMs: number };
  tools: { runs: number; tree?: string; pattern?: string; glob?: string };
  inspector: InspectorConfig;
  session: SessionConfig;
  sandbox: { runs: number };
  parallel: { runs: number; delayMs: number; childRounds: number };
  restate: RestateBenchConfig;
  manyTasks: ManyTasksConfig;
}

export const FULL: BenchConfig = {
  engine: { rounds: 1000, runs: 9 },
  growth: { sizes: [100, 10_000], runs: 5, memoryRounds: 10_000, memoryRuns: 3 },
  coldStart: { runs: 10 },
  streaming: { runs: 4, deltas: 20, spacingMs: 20 },
  tools: { runs: 7 },
  inspector: { rounds: 1000, runs: 5, processes: { sets: 3, warmup: 4, runs: 4 } },
  session: { runs: 3, rounds: [10, 50, 150, 1000] },
  sandbox: { runs: 21 },
  parallel: { runs: 5, delayMs: 200, childRounds: 10 },
  restate: { runs: 3, rounds: 20, concurrent: 50, concurrentRounds: 10 },
  manyTasks: { runs: 3, tasks: 1000, rounds: 4, latencyMs: 200, batch: { tasks: 1000, concurrency: 100, rounds: 2 } },
};

/**
 * Runs the twelve benchmarks in order and returns the table's rows. `progress` hears which one starts.
 * @example const rows = await runBenchmarks(FULL, (name) => process.stderr.write(`${name}...\n`));
 */
export async function runBenchmarks(config: BenchConfig, progress: (name: string) => void = () => {}): Promise<Row[]> {
  const rows: Row[] = [];
  progress('1. engine overhead');
  const engine = await engineOverheadRows(config.engine);
  rows.push(...engine.rows);
  progress('2. growth and memory');
  rows.push(...(await growthRows({ ...config.growth, reference: { rounds: config.engine.rounds, subject: engine.samples.subject } })));
  progress('3. cold start');
  rows.push(...(await coldStartRows(config.coldStart)));
  progress('4. streaming pass-through');
  rows.push(...(await streamingRows(config.streaming)));
  progress('5. tools');
  rows.push(...(await toolRows(config.tools)));
  progress('6. inspector');
  rows.push(...(await inspectorRows(config.inspector)));
  progress('7-8. one-answer task and tool sessions');
  rows.push(...(await sessionRows(config.session)));
  progress('9. sandbox');
  rows.push(...(await sandboxRows(config.sandbox)));
  progress('10. durable task (Restate)');
  rows.push(...(await restateRows(config.restate)));
  progress('11-12. parallel calls and subagents');
  rows.push(...(await parallelRows(config.parallel)));
  progress('13-14. many tasks in one process');
  rows.push(...(await manyTasksRows(config.manyTasks)));
  return rows;
}
