import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph, eventLabel } from '../../machines/chart-graph.js';
import { renderDiagram } from '../diagram/render.js';
import { countTransitions, neverTaken, type CountedLine } from '../diagram/transition-counts.js';
import { SessionError } from '../sessions/errors.js';
import { sessionsRoot, TRACE_FILE, xagentHome } from '../sessions/layout.js';
import { readSessionRecords } from '../sessions/session-reader.js';
import { type DiagramRequest, writeDrawing } from './diagram-command.js';
import { UsageError } from './exit-codes.js';

/** `--since`: a date or an ISO time (`2026-11-30`, `2026-11-30T12:00Z`); anything else is a usage error. */
export function parseSince(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const at = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(at))
    throw new UsageError(`--since "${value}" is not a date: use a day such as 2026-11-30 or an ISO time such as 2026-11-30T12:00:00Z`);
  return at;
}

/** Every session's state lines under `<home>/sessions`, one array per trace; unreadable ones are named. */
function sessionTraces(home: string): { traces: CountedLine[][]; unreadable: string[] } {
  const root = sessionsRoot(home);
  if (!existsSync(root)) return { traces: [], unreadable: [] };
  const traces: CountedLine[][] = [];
  const unreadable: string[] = [];
  const files = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(root, entry.name, TRACE_FILE))
    .filter((file) => existsSync(file))
    .sort();
  for (const file of files) {
    try {
      traces.push(readSessionRecords(file).lines);
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
      unreadable.push(error.message);
    }
  }
  return { traces, unreadable };
}

/**
 * `xagent diagram --from-sessions [--since <date>]`: the chart as a heat map of the recorded
 * sessions on stdout, and on stderr what was counted, what was skipped and which transitions
 * were never taken.
 * @example await diagramFromSessions({ format: 'svg', since: '2026-11-30', stdout, stderr });
 */
export async function diagramFromSessions(
  options: DiagramRequest & {
    since?: string;
    env?: NodeJS.ProcessEnv;
    stdout: NodeJS.WriteStream;
    stderr: NodeJS.WritableStream;
  },
): Promise<void> {
  const since = parseSince(options.since);
  const home = xagentHome(options.env ?? process.env);
  const graph = chartGraph(queryEngine);
  const { traces, unreadable } = sessionTraces(home);
  const sessions = traces.length;
  const result = countTransitions(graph, traces, { since });
  writeDrawing(await renderDiagram(options.format, { ...options, graph, counts: result.counts }), options, options.stdout);

  const never = neverTaken(graph, result.counts);
  const skipped = result.skipped.withoutVia + result.skipped.unmatched + result.skipped.otherChart;
  const lines = [
    `Counted ${result.counted} transitions in ${result.tasks} tasks of ${sessions} sessions under ${sessionsRoot(home)}${options.since ? ` since ${options.since}` : ''}.`,
    ...(result.skipped.withoutVia
      ? [`Skipped ${result.skipped.withoutVia} steps of traces without "via" that more than one transition could explain.`]
      : []),
    ...(result.skipped.unmatched
      ? [`Skipped ${result.skipped.unmatched} steps whose "via" event matches no transition of this chart (recorded by another version).`]
      : []),
    ...(result.otherChartTasks
      ? [
          `${result.otherChartTasks} of the tasks were recorded by an older chart: only their steps whose transition id this chart still has are counted${
            result.skipped.otherChart ? ` (skipped ${result.skipped.otherChart} steps)` : ''
          }.`,
        ]
      : []),
    ...(skipped === 0 ? ['Skipped no steps.'] : []),
    ...unreadable.map((why) => `Left out a session: ${why}`),
    `Never taken (${never.length} of ${graph.edges.filter((e) => !e.internal).length}):`,
    ...never.map((e) => `  ${e.kind === 'root' ? 'any state' : e.from} --${eventLabel(e)}${e.guard ? ` [${e.guard}]` : ''}--> ${e.to}`),
    ...(graph.edges.some((e) => e.internal)
      ? ['Targetless transitions (they stay in their state) leave no state line and are not counted.']
      : []),
  ];
  options.stderr.write(`${lines.join('\n')}\n`);
}
