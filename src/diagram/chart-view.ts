import type { ChartEdge, ChartGraph, ChartNode } from '../../machines/chart-graph.js';

/**
 * A view of the chart at the size of a person: the overview (states below a depth collapsed into
 * one box that says how much is inside), or one state expanded with the transitions in and out
 * drawn as stubs naming the other end. A view is itself a chart graph, so the layout, the SVG and
 * Mermaid draw it unchanged; every box and edge is derived from the machine's graph, never listed.
 */

/** What an edge's label shows: its trigger; trigger and guard; or trigger, guard and actions. */
export const LABEL_MODES = ['event', 'guard', 'full'] as const;
export type LabelMode = (typeof LABEL_MODES)[number];

export interface ViewNode extends ChartNode {
  /** A collapsed compound state: how many states and transitions its box stands for. */
  inner?: { states: number; transitions: number };
  /** The other end of a transition in or out of the expanded state, drawn small (a stub). */
  stub?: true;
}

export interface ViewEdge extends ChartEdge {
  /** The chart's transitions this edge stands for (one, or several merged into one label). */
  members: string[];
}

export interface ViewGraph extends ChartGraph {
  nodes: ViewNode[];
  edges: ViewEdge[];
  /** What the view shows: `overview`, `depth 2`, `state call_model`, or `chart` for the whole. */
  view: string;
}

export interface ViewOptions {
  /** Collapse every state deeper than this (1: the eight top-level states). */
  depth?: number;
  /** Expand this state (a path such as `call_model`); the rest appears as stubs. */
  state?: string;
  /** With `depth`: also expand this compound state in place (the inspector's lit state). */
  expand?: string;
  labels?: LabelMode;
}

/** The prefix of a stub's id: `stub:done` is the box standing for `done` in a state view. */
export const STUB = 'stub:';

const depthOf = (id: string) => id.split('.').length;
const within = (id: string, ancestor: string) => id === ancestor || id.startsWith(`${ancestor}.`);

/** The label fields a mode keeps: `event` drops guards and actions, `guard` drops actions. */
function labelled(edge: ChartEdge, mode: LabelMode): ChartEdge {
  const { guard, ...rest } = edge;
  return { ...rest, ...(mode !== 'event' && guard ? { guard } : {}), actions: mode === 'full' ? edge.actions : [] };
}

/** Edges that draw the same (same ends, same label) become one edge listing its members. */
function merged(edges: Array<{ edge: ChartEdge; from: string; to: string }>, mode: LabelMode): ViewEdge[] {
  const byKey = new Map<string, ViewEdge>();
  for (const { edge, from, to } of edges) {
    const shown = labelled(edge, mode);
    const key = JSON.stringify([from, to, shown.event, shown.guard, shown.actions, shown.internal === true, shown.kind]);
    const existing = byKey.get(key);
    if (existing) existing.members.push(edge.id);
    else byKey.set(key, { ...shown, from, to, members: [edge.id] });
  }
  return [...byKey.values()];
}

/**
 * The chart seen at a depth, or with one state expanded.
 * @example chartView(chartGraph(queryEngine), { depth: 1 }).nodes.map((n) => n.id) // the eight top-level states
 */
export function chartView(graph: ChartGraph, options: ViewOptions): ViewGraph {
  const mode = options.labels ?? 'full';
  if (options.state !== undefined) return stateView(graph, options.state, mode);
  const depth = options.depth ?? Number.POSITIVE_INFINITY;
  const expand = options.expand;
  const open = (node: ChartNode) => depthOf(node.id) < depth || (expand !== undefined && within(expand, node.id));
  // A node is drawn when every ancestor is open; an edge's ends are the drawn nodes holding them.
  const drawn = graph.nodes.filter((n) => n.parent === undefined || ancestors(n.id).every((a) => open(node(graph, a))));
  const drawnIds = new Set(drawn.map((n) => n.id));
  const visible = (id: string) => {
    if (id === graph.id) return id;
    let at = id;
    while (!drawnIds.has(at)) at = at.slice(0, at.lastIndexOf('.'));
    return at;
  };
  const ends = graph.edges.map((edge) => ({ edge, from: edge.kind === 'root' ? edge.from : visible(edge.from), to: visible(edge.to) }));
  // An edge inside a collapsed box is part of what the box stands for, not an arrow.
  const hidden = ({ edge, from, to }: (typeof ends)[number]) =>
    from === to && (edge.from !== from || edge.to !== to) && !open(node(graph, from));
  const nodes = drawn.map((n): ViewNode => {
    if (!n.children || open(n)) return n;
    const { children: _children, invoke: _invoke, ...rest } = n;
    const inside = graph.nodes.filter((m) => m.id !== n.id && within(m.id, n.id)).length;
    const transitions = graph.edges.filter((e) => e.kind !== 'root' && within(e.from, n.id) && within(e.to, n.id)).length;
    return { ...rest, entry: [], inner: { states: inside, transitions } };
  });
  const name = Number.isFinite(depth) ? (depth === 1 ? 'overview' : `depth ${depth}`) : 'chart';
  return {
    ...graph,
    view: expand ? `${name}, ${expand} expanded` : name,
    nodes,
    edges: merged(
      ends.filter((e) => !hidden(e)),
      mode,
    ),
  };
}

function node(graph: ChartGraph, id: string): ChartNode {
  const found = graph.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`the chart has no state "${id}"`);
  return found;
}

const ancestors = (id: string) =>
  id
    .split('.')
    .slice(0, -1)
    .map((_, k, parts) => parts.slice(0, k + 1).join('.'));

/** One state expanded: its states and transitions, and a stub for each state outside that a transition comes from or goes to. */
function stateView(graph: ChartGraph, state: string, mode: LabelMode): ViewGraph {
  const focus = node(graph, state);
  const inside = (id: string) => within(id, state);
  const touching = graph.edges.filter((e) => (e.kind !== 'root' && inside(e.from)) || inside(e.to));
  const stubFor = (id: string) => `${STUB}${id === graph.id ? 'any state' : id}`;
  // A transition into the expanded state itself ends on its box (XState enters its initial state).
  const ends = touching.map((edge) => ({
    edge,
    from: inside(edge.from) && edge.kind !== 'root' ? edge.from : stubFor(edge.from),
    to: inside(edge.to) ? edge.to : stubFor(edge.to),
  }));
  const stubs = [...new Set(ends.flatMap((e) => [e.from, e.to]).filter((id) => id.startsWith(STUB)))].map(
    (id): ViewNode => ({ id, initial: false, final: false, entry: [], stub: true }),
  );
  const { parent: _parent, ...top } = focus;
  const nodes: ViewNode[] = [...graph.nodes.filter((n) => inside(n.id)).map((n) => (n.id === state ? top : n)), ...stubs];
  return { ...graph, view: `state ${state}`, nodes, edges: merged(ends, mode) };
}
