import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModelResponse, ToolResultBlock } from '../machines/types.js';
import { GENERAL_PURPOSE, type AgentDefinition } from '../src/agents/definition.js';
import { loadTaskContext } from '../src/context/task-context.js';
import { query } from '../src/engine/query.js';
import type { ModelClient } from '../src/model/types.js';
import { roundKit, roundsModel } from './round-fixtures.js';
import { summarize } from './stats.js';
import type { Row } from './table.js';

/**
 * Issue 36's targets: a tool round's CPU with subagents as children of the chart's actor system, side
 * by side with another build (`XAGENT_BENCH_BASELINE=<that build's dist>`, e.g. the parent commit's;
 * without it, the row has no baseline), and the RSS three concurrent 10-round subagents add.
 */

export const CPU_RATIO_TARGET = 1.1;
export const SUBAGENTS_RSS_TARGET_MB = 30;

type EngineRun = (options: ReturnType<typeof roundKit> & { model: ModelClient; rounds: number }) => Promise<unknown>;

/** CPU µs (user + system) per round of one engine run of `rounds` rounds. */
async function cpuPerRound(run: EngineRun, kit: ReturnType<typeof roundKit>, model: (n: number) => ModelClient, rounds: number) {
  const before = process.cpuUsage();
  await run({ ...kit, model: model(rounds), rounds });
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / rounds;
}

/** The other build's engine run and fixtures, when XAGENT_BENCH_BASELINE names its dist folder. */
async function baselineBuild(): Promise<{ run: EngineRun; kit: ReturnType<typeof roundKit>; model: (n: number) => ModelClient } | null> {
  const dist = process.env.XAGENT_BENCH_BASELINE;
  if (!dist) return null;
  const load = (file: string) => import(pathToFileURL(path.join(dist, 'bench', file)).href);
  const [{ engineRun }, fixtures] = await Promise.all([load('engine-run.js'), load('round-fixtures.js')]);
  return { run: engineRun as EngineRun, kit: fixtures.roundKit(), model: fixtures.roundsModel };
}

/**
 * A model for three subagents of `rounds` rounds each: the main agent sends three task calls in
 * one response (they run at once, a batch of children), each child calls `noop` `rounds` times and
 * answers, then the main agent answers.
 */
function delegatingModel(rounds: number): ModelClient {
  return {
    name: 'bench-subagents',
    async createMessage(request): Promise<ModelResponse> {
      const usage = { input_tokens: 0, output_tokens: 0 };
      const results = (request.messages.at(-1)?.content ?? []).filter((b): b is ToolResultBlock => b.type === 'tool_result');
      if (request.system === SCOUT.prompt) {
        const done = request.messages.filter((m) => m.role === 'assistant').length;
        if (done < rounds)
          return { content: [{ type: 'tool_use', id: `toolu_${done}`, name: 'noop', input: { n: done } }], stopReason: 'tool_use', usage };
        return { content: [{ type: 'text', text: 'found' }], stopReason: 'end_turn', usage };
      }
      if (results.length > 0) return { content: [{ type: 'text', text: 'all found' }], stopReason: 'end_turn', usage };
      const task = (i: number) => ({
        type: 'tool_use' as const,
        id: `toolu_task_${i}`,
        name: 'task',
        input: { description: `look ${i}`, prompt: `look ${i}`, subagent_type: SCOUT.name },
      });
      return { content: [task(1), task(2), task(3)], stopReason: 'tool_use', usage };
    },
  };
}

const SCOUT: AgentDefinition = {
  name: 'scout',
  description: 'Looks things up',
  prompt: 'You look things up.',
  tools: ['noop'],
  model: null,
  permissionMode: null,
  source: 'bench',
};

/** Peak RSS (MB) above the RSS before the run (after a gc, with --expose-gc), sampled every 2 ms, of one task with three subagents of `rounds` rounds. */
async function subagentsRssMb(rounds: number): Promise<number> {
  const kit = roundKit();
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const events = query('delegate', {
    model: delegatingModel(rounds),
    tools: kit.tools,
    permissions: kit.permissions,
    workspace: kit.workspace,
    context: loadTaskContext({ workspace: kit.workspace, home: null }),
    agents: [GENERAL_PURPOSE, SCOUT],
    maxTurns: 100,
    maxToolCalls: 100,
    timeoutMs: 600_000,
  });
  let children = 0;
  for await (const event of events) {
    if (event.type === 'tool_start' && event.agent !== 'main') children = Math.max(children, Number(event.agent?.slice(-1)));
    if (event.type === 'result' && event.reason !== 'final_answer') throw new Error(`the delegating run ended with ${event.reason}`);
  }
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (children !== 3) throw new Error(`expected three subagents, saw ${children}`);
  return (peak - before) / 1024 / 1024;
}

/**
 * The rows: CPU per tool round (this build, and the baseline build side by side), and the RSS three
 * concurrent 10-round subagents add.
 * @example const rows = await subagentRows({ rounds: 1000, runs: 5 });
 */
export async function subagentRows(options: { rounds: number; runs: number }): Promise<Row[]> {
  // RSS first, while the process is fresh (after the 1,000-round runs the heap has room to spare):
  // one warm-up delegation with 1-round subagents loads and compiles the code paths, then the runs.
  await subagentsRssMb(1);
  const rss: number[] = [];
  for (let k = 0; k < 3; k++) rss.push(await subagentsRssMb(10));
  const { engineRun } = await import('./engine-run.js');
  const own = { run: engineRun as EngineRun, kit: roundKit(), model: roundsModel };
  const other = await baselineBuild();
  const subject: number[] = [];
  const baseline: number[] = [];
  // Interleaved, after one warm-up run each, so both builds see the same machine load.
  await cpuPerRound(own.run, own.kit, own.model, options.rounds);
  if (other) await cpuPerRound(other.run, other.kit, other.model, options.rounds);
  for (let k = 0; k < options.runs; k++) {
    subject.push(await cpuPerRound(own.run, own.kit, own.model, options.rounds));
    if (other) baseline.push(await cpuPerRound(other.run, other.kit, other.model, options.rounds));
  }
  const value = summarize(subject);
  const cpuRow: Row = {
    name: `15. CPU per tool round, subagents as children (${options.rounds} rounds)`,
    unit: 'µs',
    value,
    ...(other
      ? {
          baseline: { name: 'XAGENT_BENCH_BASELINE build', value: summarize(baseline) },
          target: `≤ ${CPU_RATIO_TARGET}× baseline`,
          met: value.median <= CPU_RATIO_TARGET * summarize(baseline).median,
        }
      : {}),
  };
  const rssValue = summarize(rss);
  return [
    cpuRow,
    {
      name: '16. RSS added by three concurrent 10-round subagents',
      unit: 'MB',
      value: rssValue,
      target: `< ${SUBAGENTS_RSS_TARGET_MB} MB`,
      met: rssValue.median < SUBAGENTS_RSS_TARGET_MB,
    },
  ];
}
