import type { ChartEdge, ChartGraph, ChartNode } from '../../machines/chart-graph.js';
import { STUB } from './chart-view.js';

/**
 * What changed between two versions of the chart, matched by stable id: a state by its path, a
 * transition by `<from>:<event>[<guard>]><to>`. A transition whose actions changed keeps its id and
 * is `changed`; one whose guard or target changed is a different transition (one removed, one added).
 */

export type Change = 'added' | 'removed' | 'changed';

export interface Changes {
  added: string[];
  removed: string[];
  changed: string[];
}

export interface ChartDiff {
  before: string;
  after: string;
  states: Changes;
  transitions: Changes;
  /** Guard and action names used by some transition or state of one chart and not the other. */
  guards: Changes;
  actions: Changes;
  /** The top-level states holding anything that changed: each one's view shows it. */
  touched: string[];
  /** What changed, by state or transition id, for the drawing. */
  marks: Map<string, Change>;
  /** Both charts in one: the after chart with what was removed put back, for drawing. */
  union: ChartGraph;
}

const nodeFacts = (n: ChartNode) => JSON.stringify([n.initial, n.final, n.entry, n.invoke ?? [], n.children ?? []]);
const edgeFacts = (e: ChartEdge) => JSON.stringify([e.actions, e.reenter === true]);

function compare<T>(before: T[], after: T[], id: (t: T) => string, facts: (t: T) => string): Changes {
  const old = new Map(before.map((t) => [id(t), facts(t)]));
  const now = new Map(after.map((t) => [id(t), facts(t)]));
  return {
    added: [...now.keys()].filter((k) => !old.has(k)),
    removed: [...old.keys()].filter((k) => !now.has(k)),
    changed: [...now.keys()].filter((k) => old.has(k) && old.get(k) !== now.get(k)),
  };
}

const names = (graph: ChartGraph, of: (g: ChartGraph) => string[]) => [...new Set(of(graph))].sort();
const guardNames = (g: ChartGraph) => g.edges.flatMap((e) => (e.guard ? [e.guard] : []));
const actionNames = (g: ChartGraph) => [...g.edges.flatMap((e) => e.actions), ...g.nodes.flatMap((n) => n.entry)];

function setChanges(before: string[], after: string[]): Changes {
  return { added: after.filter((n) => !before.includes(n)), removed: before.filter((n) => !after.includes(n)), changed: [] };
}

const topOf = (id: string) => id.split('.')[0];

/**
 * The difference of two charts.
 * @example diffCharts(before, after).transitions.added // ['call_model.requesting:RETRY>call_model.requesting']
 */
export function diffCharts(before: ChartGraph, after: ChartGraph): ChartDiff {
  const states = compare(before.nodes, after.nodes, (n) => n.id, nodeFacts);
  const transitions = compare(before.edges, after.edges, (e) => e.id, edgeFacts);
  const marks = new Map<string, Change>();
  for (const kind of ['added', 'removed', 'changed'] as const) {
    for (const id of states[kind]) marks.set(id, kind);
    for (const id of transitions[kind]) marks.set(id, kind);
  }
  const removedNodes = before.nodes.filter((n) => states.removed.includes(n.id));
  const removedEdges = before.edges.filter((e) => transitions.removed.includes(e.id));
  // A removed state goes back into its parent's box (when the parent is still there).
  const nodes = after.nodes.map((n) => {
    const back = removedNodes.filter((r) => r.parent === n.id).map((r) => r.id);
    return back.length > 0 ? { ...n, children: [...(n.children ?? []), ...back] } : n;
  });
  const kept = new Set(nodes.map((n) => n.id));
  const union: ChartGraph = {
    ...after,
    nodes: [...nodes, ...removedNodes.map((r) => (r.parent && !kept.has(r.parent) ? { ...r, parent: undefined } : r))],
    edges: [...after.edges, ...removedEdges],
  };
  const endsOf = (id: string) => {
    const edge = union.edges.find((e) => e.id === id);
    return edge ? [edge.kind === 'root' ? edge.to : edge.from, edge.to] : [id];
  };
  const touched = [...new Set([...marks.keys()].flatMap(endsOf).map(topOf))].filter((id) => union.nodes.some((n) => n.id === id));
  return {
    before: before.fingerprint,
    after: after.fingerprint,
    states,
    transitions,
    guards: setChanges(names(before, guardNames), names(after, guardNames)),
    actions: setChanges(names(before, actionNames), names(after, actionNames)),
    touched,
    marks,
    union,
  };
}

/** True when the two charts are the same chart. */
export const unchanged = (diff: ChartDiff) => diff.marks.size === 0 && diff.before === diff.after;

/**
 * The marks of a diff for what a view draws: a collapsed box is `changed` when anything inside it
 * changed, a stub takes its state's mark, and an edge standing for several transitions takes theirs
 * (`changed` when they differ).
 */
export function viewMarks(view: ChartGraph, marks: ReadonlyMap<string, Change>): Map<string, Change> {
  const drawn = new Map<string, Change>();
  const inside = (id: string, box: string) => id === box || id.startsWith(`${box}.`);
  for (const node of view.nodes) {
    const own = marks.get(node.id.startsWith(STUB) ? node.id.slice(STUB.length) : node.id);
    const collapsed = 'inner' in node && node.inner !== undefined;
    const within =
      collapsed &&
      [...marks.keys()].some(
        (id) => id !== node.id && (inside(id, node.id) || id.startsWith(`${node.id}:`) || id.startsWith(`${node.id}.`)),
      );
    if (own) drawn.set(node.id, own);
    else if (within) drawn.set(node.id, 'changed');
  }
  for (const edge of view.edges) {
    const members = 'members' in edge ? (edge.members as string[]) : [edge.id];
    const found = new Set(members.map((m) => marks.get(m)).filter((m): m is Change => m !== undefined));
    if (found.size > 0) drawn.set(edge.id, found.size === 1 ? [...found][0] : 'changed');
  }
  return drawn;
}
