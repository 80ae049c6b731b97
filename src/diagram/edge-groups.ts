import { eventLabel, type ChartEdge, type ChartGraph } from '../../machines/chart-graph.js';

/**
 * Transitions between the same two states, drawn as one arrow whose label lists each of them.
 * Three `call_model → done` arrows side by side cannot be told apart at slide size; one arrow with
 * three labelled blocks can. Root handlers (ABORT, the deadline) are one group from the
 * "any state" box, so they are drawn once rather than from every state.
 */

/** The pseudo-state that root-level handlers start from: they fire whatever state is active. */
export const ANY_STATE = 'any_state';

export interface EdgeGroup {
  /** `<from>><to>` as drawn (root handlers from `any_state`). */
  id: string;
  from: string;
  to: string;
  edges: ChartEdge[];
}

/** Where an edge is drawn from: the "any state" box for the root's handlers. */
export const drawnFrom = (edge: ChartEdge): string => (edge.kind === 'root' ? ANY_STATE : edge.from);

/** The chart's transitions grouped by the two states they join, in declaration order. */
export function edgeGroups(graph: ChartGraph): EdgeGroup[] {
  const groups = new Map<string, EdgeGroup>();
  for (const edge of graph.edges) {
    const from = drawnFrom(edge);
    const id = `${from}>${edge.to}`;
    const group = groups.get(id) ?? { id, from, to: edge.to, edges: [] };
    group.edges.push(edge);
    groups.set(id, group);
  }
  return [...groups.values()];
}

/**
 * A transition's label as short lines, narrow enough to sit on its arrow:
 * the trigger, then `[guard]`, then `/ actions` (one a line when they are long), and `(stays)` for a targetless one.
 * @example edgeLines({ event: '', guard: 'callInvalid', actions: [] }) // ['always', '[callInvalid]']
 */
export function edgeLines(edge: Pick<ChartEdge, 'event' | 'guard' | 'actions' | 'internal'>): string[] {
  return [eventLabel(edge) + (edge.internal ? ' (stays)' : ''), ...(edge.guard ? [`[${edge.guard}]`] : []), ...actionLines(edge.actions)];
}

/** Past this many characters a label's actions go one per line: long labels widen the whole picture. */
const ACTIONS_WIDTH = 32;

function actionLines(actions: string[]): string[] {
  if (actions.length === 0) return [];
  const oneLine = `/ ${actions.join(', ')}`;
  if (oneLine.length <= ACTIONS_WIDTH) return [oneLine];
  return actions.map((action, k) => `${k === 0 ? '/ ' : '  '}${action}${k < actions.length - 1 ? ',' : ''}`);
}

/** The line a heat map adds under a transition's label. */
export function countLine(edge: Pick<ChartEdge, 'internal'>, count: number | undefined): string {
  if (edge.internal) return 'not in traces';
  return count ? `taken ${count}×` : 'never taken';
}

/** The edge's label on one line, as in the chart: `event [guard] / actions`. */
export function edgeText(edge: Pick<ChartEdge, 'event' | 'guard' | 'actions'>): string {
  const guard = edge.guard ? ` [${edge.guard}]` : '';
  const actions = edge.actions.length > 0 ? ` / ${edge.actions.join(', ')}` : '';
  return `${eventLabel(edge)}${guard}${actions}`;
}
