import type { ChartEdge, ChartGraph } from './chart-graph.js';

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
}

export interface TransitionCounts {
  /** Edge id -> times taken; every edge of the chart is present, 0 when never taken. */
  counts: Map<string, number>;
  /** State lines counted as a transition. */
  counted: number;
  /** Steps that could not be tied to one transition, by why. */
  skipped: { withoutVia: number; unmatched: number };
  /** Tasks read (a trace holds one per task, each starting at seq 0). */
  tasks: number;
}

/** The trace's name for an eventless transition and for the first state. */
const ALWAYS = 'always';
const INIT = 'xstate.init';

/** The transitions that could have entered `to` from `from`, on `event` when it is known. */
function candidates(graph: ChartGraph, from: string, to: string, event: string | undefined): ChartEdge[] {
  return graph.edges.filter((e) => {
    if (e.internal || e.to !== to) return false;
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
  const result: TransitionCounts = { counts, counted: 0, skipped: { withoutVia: 0, unmatched: 0 }, tasks: 0 };
  for (const lines of traces) {
    let previous: string | undefined;
    for (const line of lines) {
      if (typeof line.state !== 'string' || !states.has(line.state)) continue;
      const event = typeof line.via?.event === 'string' ? line.via.event : undefined;
      if (line.seq === 0 || event === INIT) {
        previous = line.state;
        result.tasks++;
        continue;
      }
      const from = previous;
      previous = line.state;
      if (from === undefined) continue;
      if (options.since !== undefined && !(typeof line.ts === 'string' && Date.parse(line.ts) >= options.since)) continue;
      // Since the step record the trace names the edge itself; older lines are matched.
      const named = typeof line.via?.transition === 'string' && counts.has(line.via.transition) ? [line.via.transition] : undefined;
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
