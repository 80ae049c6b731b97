import type { ELK, ELKConstructorArguments, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { ChartEdge, ChartGraph } from '../../machines/chart-graph.js';
import { STUB, type ViewNode } from './chart-view.js';
import { ANY_STATE, countLine, edgeGroups, edgeLines, edgeText } from './edge-groups.js';

/**
 * Positions for the chart, from ELK's layered algorithm (pure JavaScript, no browser). The SVG
 * renderer draws it and the inspector reuses it, so both show the same picture. Transitions between
 * the same two states share one arrow; each keeps its own block of the arrow's label, so a label
 * sits on its own edge and never on a neighbour's.
 */

export interface Point {
  x: number;
  y: number;
}

export interface LaidOutNode {
  /** A state id, or `any_state` for the box the root's handlers start from. */
  id: string;
  /** The compound state it is drawn inside; absent at the top level. */
  parent?: string;
  /** A compound state: a box around its children, its title at the top. */
  compound?: true;
  /** Absolute, like every coordinate of the layout (parents come before their children). */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The lines under the title: entry actions and invoked actors. */
  details: string[];
  /** The same, on one line (`entry a · invoke b`). */
  detail: string;
}

export interface Section {
  startPoint: Point;
  endPoint: Point;
  bendPoints: Point[];
}

export interface LaidOutLabel {
  /** The transition's label on one line. */
  text: string;
  /** As drawn: trigger, `[guard]`, `/ actions`. */
  lines: string[];
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidOutEdge {
  id: string;
  from: string;
  to: string;
  /** The arrow it is drawn on, shared with the other transitions between the same two states. */
  group: string;
  sections: Section[];
  /** Its block of the arrow's label; null when laid out without labels. */
  label: LaidOutLabel | null;
}

export interface ChartLayout {
  width: number;
  height: number;
  /** The text sizes it was measured with (the SVG draws with them); the defaults when absent. */
  type?: Typography;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

export interface LayoutOptions {
  /**
   * Leave room for the labels and the boxes' detail lines (default), or lay out the bare arrows and
   * titles (the inspector's compact view, which shows labels on demand).
   */
  labels?: boolean;
  /** Times each transition was taken (a heat map): adds a line to each label. */
  counts?: ReadonlyMap<string, number>;
  /** Where the arrows run: down the page (the whole chart), or to the right (a slide is wide). */
  direction?: 'DOWN' | 'RIGHT';
  /** Extra ELK options for the top level (the views' placement). */
  elk?: Record<string, string>;
  /** Text sizes; the defaults otherwise. */
  type?: Typography;
  /** A transition's trigger and guard on one line (`done(callModel) [responseHasToolCalls]`): labels half as tall. */
  oneLine?: boolean;
}

// elkjs is a 1.6 MB CommonJS bundle (~140 ms to load): loaded on the first layout, so that the CLI,
// which imports this module through the inspector, does not pay for it at every start.
// Under NodeNext its typed default export is the namespace's `default`.
let elkConstructor: Promise<new (args?: ELKConstructorArguments) => ELK> | undefined;
const loadElk = () =>
  (elkConstructor ??= import('elkjs/lib/elk.bundled.js').then(
    (elkBundled) => (elkBundled as unknown as { default: new (args?: ELKConstructorArguments) => ELK }).default,
  ));

/**
 * Monospace metrics the SVG uses, so measured boxes fit their text without a browser. Sizes are
 * chosen with the layout's width so that the SVG shown 1,280 px wide keeps every text >= 11 px.
 */
export const FONT = { family: 'ui-monospace, Menlo, Consolas, monospace', title: 14, detail: 11.5, label: 12 } as const;
export const LINE = { title: 20, detail: 15, label: 15 } as const;

/** Text sizes of one picture (the views draw state names larger than the whole chart does). */
export interface Typography {
  font: { title: number; detail: number; label: number };
  line: { title: number; detail: number; label: number };
}
export const DEFAULT_TYPE: Typography = { font: FONT, line: LINE };

/** Sizes scaled from the defaults: `{ title: 1.6 }` draws state names 1.6 times as large. */
export function scaledType(scale: { title?: number; label?: number }): Typography {
  const t = scale.title ?? 1;
  const l = scale.label ?? 1;
  return {
    font: { title: FONT.title * t, detail: FONT.detail * t, label: FONT.label * l },
    line: { title: LINE.title * t, detail: LINE.detail * t, label: LINE.label * l },
  };
}
/** Vertical gap between two transitions' blocks in one label. */
const BLOCK_GAP = 5;
const PAD = 8;
const charWidth = (size: number) => size * 0.62;
export const textWidth = (text: string, size: number) => Math.ceil(text.length * charWidth(size));

const round = (n: number) => Math.round(n * 10) / 10;
const point = (p: Point): Point => ({ x: round(p.x), y: round(p.y) });

function nodeDetails(graph: ChartGraph, id: string): string[] {
  if (id === ANY_STATE) return ['handlers of every state', ...(graph.invoke ? [`invoke ${graph.invoke.join(', ')}`] : [])];
  const node: ViewNode | undefined = graph.nodes.find((n) => n.id === id);
  if (node?.inner) return [`${node.inner.states} states, ${node.inner.transitions} transitions inside`];
  // A targetless transition stays inside its state: listed in the box, as UML draws internal transitions.
  const internal = graph.edges.filter((e) => e.from === id && e.internal && e.kind !== 'root').map((e) => edgeText(e));
  return [
    ...(node?.entry.length ? [`entry ${node.entry.join(', ')}`] : []),
    ...(node?.invoke ? [`invoke ${node.invoke.join(', ')}`] : []),
    ...internal,
  ];
}

/** The title drawn in a state's box: a nested state by its own name, its parent's box names the rest. */
export const nodeTitle = (graph: ChartGraph, id: string) =>
  id === ANY_STATE
    ? `any state (${graph.id})`
    : id.startsWith(STUB)
      ? id.slice(STUB.length)
      : graph.nodes.find((n) => n.id === id)?.parent
        ? id.slice(id.lastIndexOf('.') + 1)
        : id;

const blockHeight = (lines: string[], t: Typography) => lines.length * t.line.label;
/** A box's title and detail lines: the whole of a leaf, the header of a compound state. */
const headerHeight = (details: string[], t: Typography) => PAD + t.line.title + details.length * t.line.detail + PAD / 2;
const headerWidth = (graph: ChartGraph, id: string, details: string[], t: Typography) =>
  Math.max(textWidth(nodeTitle(graph, id), t.font.title), ...details.map((d) => textWidth(d, t.font.detail))) + 2 * 12;

const LAYERED = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.edgeRouting': 'ORTHOGONAL',
  // Labels sit on their edge (the arrow runs through them) and take part in the layering,
  // so ELK keeps them apart from each other and from the states.
  'elk.edgeLabels.inline': 'true',
  'elk.edgeLabels.placement': 'CENTER',
  'elk.layered.spacing.nodeNodeBetweenLayers': '30',
  'elk.spacing.nodeNode': '20',
  'elk.spacing.edgeLabel': '3',
  'elk.spacing.edgeEdge': '6',
  'elk.spacing.edgeNode': '5',
  'elk.layered.spacing.edgeNodeBetweenLayers': '12',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '4',
  // Linear segments keeps long edges straight and the picture narrower than network simplex does.
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
  // Greedy cycle breaking gives the narrowest picture of the chart (1,522 px against 1,691 depth first).
  // (MODEL_ORDER throws inside elkjs 0.12 across a hierarchy; so does every considerModelOrder
  // strategy but NONE once execute_tool holds its three waits.)
  'elk.layered.cycleBreaking.strategy': 'GREEDY',
  'elk.layered.considerModelOrder.strategy': 'NONE',
} as const;

/**
 * Lays the chart out top to bottom, the nested states inside their parent's box (ELK lays out the
 * whole hierarchy at once, so an edge from a nested state to another top-level state is routed
 * across the boxes): one arrow per pair of states, labels inline on their arrows.
 * @example const layout = await layoutChart(chartGraph(queryEngine)); layout.nodes[0].id // 'build_context'
 */
export async function layoutChart(graph: ChartGraph, options: LayoutOptions = {}): Promise<ChartLayout> {
  const withLabels = options.labels ?? true;
  const direction = { 'elk.direction': options.direction ?? 'DOWN' };
  const { counts } = options;
  const t = options.type ?? DEFAULT_TYPE;
  const shortLines = (edge: ChartEdge) => {
    const [trigger, ...rest] = edgeLines(edge);
    return options.oneLine && edge.guard ? [`${trigger} ${rest[0]}`, ...rest.slice(1)] : [trigger!, ...rest];
  };
  const linesOf = (edge: ChartEdge) => [...shortLines(edge), ...(counts ? [countLine(edge, counts.get(edge.id))] : [])];
  const groups = edgeGroups({ ...graph, edges: graph.edges.filter((e) => !e.internal || e.kind === 'root') });
  const specs = new Map(graph.nodes.map((n) => [n.id, n]));
  // Without labels (the inspector's compact view) a box holds its title only: 21 states must be
  // legible in a laptop's panel, and the labelled layout has the rest.
  const detailsOf = (id: string) => (withLabels ? nodeDetails(graph, id) : []);
  const elkNode = (id: string): ElkNode => {
    const details = detailsOf(id);
    const width = headerWidth(graph, id, details, t);
    const children = specs.get(id)?.children;
    if (!children) return { id, width, height: headerHeight(details, t) };
    return {
      id,
      layoutOptions: {
        ...LAYERED,
        ...direction,
        // The header (title, entry, invoke) sits in the top padding, above the children.
        'elk.padding': `[top=${headerHeight(details, t) + 8},left=14,bottom=14,right=14]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${width},${headerHeight(details, t)})`,
      },
      children: children.map(elkNode),
    };
  };
  const top = [...graph.nodes.filter((n) => !n.parent).map((n) => n.id), ...(groups.some((g) => g.from === ANY_STATE) ? [ANY_STATE] : [])];
  const edges: ElkExtendedEdge[] = groups.map((group) => {
    const blocks = group.edges.map(linesOf);
    const lines = blocks.flat();
    return {
      id: group.id,
      sources: [group.from],
      targets: [group.to],
      labels: withLabels
        ? [
            {
              text: group.edges.map((e) => e.id).join(' '),
              width: Math.max(...lines.map((l) => textWidth(l, t.font.label))) + 2 * 4,
              height: blocks.reduce((h, b) => h + blockHeight(b, t), 0) + (blocks.length - 1) * BLOCK_GAP + 4,
            },
          ]
        : [],
    };
  });
  const elk = new (await loadElk())();
  const input: ElkNode = {
    id: graph.id,
    layoutOptions: {
      ...LAYERED,
      ...direction,
      // One layout across the boxes, every coordinate relative to the picture.
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.json.edgeCoords': 'ROOT',
      'elk.json.shapeCoords': 'ROOT',
      'elk.padding': '[top=20,left=20,bottom=20,right=20]',
      'elk.randomSeed': '1',
      ...options.elk,
    },
    children: top.map(elkNode),
    edges,
  };
  const result = await elk.layout(input);
  const flatten = (list: ElkNode[] | undefined, parent?: string): LaidOutNode[] =>
    (list ?? []).flatMap((n) => {
      const details = detailsOf(n.id);
      const node: LaidOutNode = {
        id: n.id,
        ...(parent ? { parent } : {}),
        ...(n.children?.length ? { compound: true as const } : {}),
        x: round(n.x ?? 0),
        y: round(n.y ?? 0),
        width: round(n.width ?? 0),
        height: round(n.height ?? 0),
        details,
        detail: details.join(' · '),
      };
      return [node, ...flatten(n.children, n.id)];
    });
  const nodes = flatten(result.children);
  const laidOut = new Map((result.edges ?? []).map((e) => [e.id, e]));
  const laidOutEdges = groups.flatMap((group) => {
    const elkEdge = laidOut.get(group.id);
    const sections = (elkEdge?.sections ?? []).map((s) => ({
      startPoint: point(s.startPoint),
      endPoint: point(s.endPoint),
      bendPoints: (s.bendPoints ?? []).map(point),
    }));
    const box = elkEdge?.labels?.[0];
    let top = (box?.y ?? 0) + 2;
    return group.edges.map((edge): LaidOutEdge => {
      const lines = linesOf(edge);
      const label = box
        ? { text: edgeText(edge), lines, x: round(box.x ?? 0), y: round(top), width: round(box.width ?? 0), height: blockHeight(lines, t) }
        : null;
      top += blockHeight(lines, t) + BLOCK_GAP;
      return { id: edge.id, from: group.from, to: group.to, group: group.id, sections, label };
    });
  });
  return {
    width: round(result.width ?? 0),
    height: round(result.height ?? 0),
    ...(options.type ? { type: options.type } : {}),
    nodes,
    edges: laidOutEdges,
  };
}
