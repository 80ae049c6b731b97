import type { ChartEdge, ChartGraph } from '../../machines/chart-graph.js';

/**
 * How often each transition of the chart was taken in recorded runs, read from trace lines.
 * A state line names the state entered and, since the step record, the event that entered it
 * (`via: {event}`); with the state before it that names one transition. Older lines have no
 * `via`: then only a pair of states joined by exactly one transition can be counted, and the
 * rest are reported as skipped rather than guessed.
 */

/** What the counter reads of a trace line; anything else on the line is ignored. */
export interface CountedLine {
  state?: unknown;
  seq?: unknown;
  ts?: unknown;
  via?: { event?: unknown; transition?: unknown } | null;
  /** task_start lines: `event` says so, `chart` names the chart that ran the task. */
  event?: unknown;
  chart?: unknown;
}

export interface TransitionCounts {
  /** Edge id -> times taken; every edge of the chart is present, 0 when never taken. */
  counts: Map<string, number>;
  /** State lines counted as a transition. */
  counted: number;
  /**
   * Steps that could not be tied to one transition, by why. `otherChart`: a step of a task another
   * chart ran, whose transition this chart does not have under the same id (never guessed by its states).
   */
  skipped: { withoutVia: number; unmatched: number; otherChart: number };
  /** Tasks read (a trace holds one per task, each starting at seq 0). */
  tasks: number;
  /** Of those, tasks recorded by another chart (or before charts had fingerprints). */
  otherChartTasks: number;
}

/** The trace's name for an eventless transition and for the first state. */
const ALWAYS = 'always';
const INIT = 'xstate.init';

/** The leaf a transition to `target` enters: a compound state enters its initial child, down to a leaf. */
function enteredLeaf(graph: ChartGraph, target: string): string {
  let id = target;
  for (;;) {
    const node = graph.nodes.find((n) => n.id === id);
    const initial = node?.children?.find((child) => graph.nodes.find((n) => n.id === child)?.initial);
    if (!initial) return id;
    id = initial;
  }
}

/** The transitions that could have entered `to` from `from`, on `event` when it is known. */
function candidates(graph: ChartGraph, from: string, to: string, event: string | undefined): ChartEdge[] {
  return graph.edges.filter((e) => {
    if (e.internal || enteredLeaf(graph, e.to) !== to) return false;
    if (e.from !== from && e.kind !== 'root') return false;
    if (event === undefined) return true;
    return (e.event === '' ? ALWAYS : e.event) === event;
  });
}

/**
 * Counts the transitions taken in the given tasks' trace lines (lines without a `state` are
 * annotations and are passed over).
 * @example countTransitions(chartGraph(queryEngine), [traceLines]).counts.get('call_model:xstate.done.actor.callModel:0')
 */
export function countTransitions(
  graph: ChartGraph,
  traces: Iterable<readonly CountedLine[]>,
  options: { since?: number } = {},
): TransitionCounts {
  const counts = new Map(graph.edges.map((e) => [e.id, 0]));
  const states = new Set(graph.nodes.map((n) => n.id));
  const result: TransitionCounts = {
    counts,
    counted: 0,
    skipped: { withoutVia: 0, unmatched: 0, otherChart: 0 },
    tasks: 0,
    otherChartTasks: 0,
  };
  for (const lines of traces) {
    let previous: string | undefined;
    // Set by each task's task_start line; a trace from before task_start lines is another chart's too.
    let otherChart = true;
    let startSeen = false;
    for (const line of lines) {
      if (line.event === 'task_start') {
        otherChart = line.chart !== graph.fingerprint;
        startSeen = true;
        continue;
      }
      if (typeof line.state !== 'string') continue;
      const event = typeof line.via?.event === 'string' ? line.via.event : undefined;
      if (line.seq === 0 || event === INIT) {
        if (!startSeen) otherChart = true;
        startSeen = false;
        previous = line.state;
        result.tasks++;
        if (otherChart) result.otherChartTasks++;
        continue;
      }
      startSeen = false;
      const from = previous;
      previous = line.state;
      if (from === undefined) continue;
      if (options.since !== undefined && !(typeof line.ts === 'string' && Date.parse(line.ts) >= options.since)) continue;
      // Since the step record the trace names the edge itself; older lines are matched, but only
      // for this chart: another chart's states may share names with different edges between them.
      const named = typeof line.via?.transition === 'string' && counts.has(line.via.transition) ? [line.via.transition] : undefined;
      if (!named && otherChart) {
        result.skipped.otherChart++;
        continue;
      }
      if (!states.has(line.state)) continue;
      const found = named ?? candidates(graph, from, line.state, event).map((e) => e.id);
      if (found.length === 1) {
        counts.set(found[0]!, counts.get(found[0]!)! + 1);
        result.counted++;
      } else if (event === undefined) result.skipped.withoutVia++;
      else result.skipped.unmatched++;
    }
  }
  return result;
}

/** The chart's transitions never taken in the counted runs, in chart order. */
export function neverTaken(graph: ChartGraph, counts: Map<string, number>): ChartEdge[] {
  return graph.edges.filter((e) => !e.internal && (counts.get(e.id) ?? 0) === 0);
}
