import type { ELK, ELKConstructorArguments, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { ChartGraph } from './chart-graph.js';
import { ANY_STATE, edgeText } from './mermaid.js';

/**
 * Positions for the chart, from ELK's layered algorithm (pure JavaScript, no browser). The SVG
 * renderer draws it; the live inspector reuses it to light states and edges up.
 */

export interface Point {
  x: number;
  y: number;
}

export interface LaidOutNode {
  /** A state id, or `any_state` for the box the root's handlers start from. */
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The second line of the box: entry actions and invoked actors. */
  detail: string;
}

export interface LaidOutEdge {
  id: string;
  from: string;
  to: string;
  sections: Array<{ startPoint: Point; endPoint: Point; bendPoints: Point[] }>;
  label: { text: string; x: number; y: number; width: number; height: number } | null;
}

export interface ChartLayout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

// elkjs is a 1.6 MB CommonJS bundle (~140 ms to load): loaded on the first layout, so that the CLI,
// which imports this module through the inspector, does not pay for it at every start.
// Under NodeNext its typed default export is the namespace's `default`.
let elkConstructor: Promise<new (args?: ELKConstructorArguments) => ELK> | undefined;
const loadElk = () =>
  (elkConstructor ??= import('elkjs/lib/elk.bundled.js').then(
    (elkBundled) => (elkBundled as unknown as { default: new (args?: ELKConstructorArguments) => ELK }).default,
  ));

/** Monospace metrics the SVG uses, so measured boxes fit their text without a browser. */
export const FONT = { family: 'ui-monospace, Menlo, Consolas, monospace', title: 13, detail: 10, label: 10 } as const;
const charWidth = (size: number) => size * 0.62;
const textWidth = (text: string, size: number) => Math.ceil(text.length * charWidth(size));

const round = (n: number) => Math.round(n * 10) / 10;
const point = (p: Point): Point => ({ x: round(p.x), y: round(p.y) });

function nodeDetail(graph: ChartGraph, id: string): string {
  if (id === ANY_STATE) return `root handlers${graph.invoke ? ` · invoke ${graph.invoke.join(', ')}` : ''}`;
  const node = graph.nodes.find((n) => n.id === id);
  return [...(node?.entry.length ? [`entry ${node.entry.join(', ')}`] : []), ...(node?.invoke ? [`invoke ${node.invoke.join(', ')}`] : [])].join(' · ');
}

/**
 * Lays the chart out top to bottom, edge labels placed by ELK.
 * @example const layout = await layoutChart(chartGraph(queryEngine)); layout.nodes[0].id // 'build_context'
 */
export async function layoutChart(graph: ChartGraph): Promise<ChartLayout> {
  const hasRoot = graph.edges.some((e) => e.kind === 'root');
  const ids = [...graph.nodes.map((n) => n.id), ...(hasRoot ? [ANY_STATE] : [])];
  const children: ElkNode[] = ids.map((id) => {
    const title = id === ANY_STATE ? `any state (${graph.id})` : id;
    const detail = nodeDetail(graph, id);
    return {
      id,
      width: Math.max(textWidth(title, FONT.title), textWidth(detail, FONT.detail)) + 24,
      height: detail ? 44 : 30,
    };
  });
  const edges: ElkExtendedEdge[] = graph.edges.map((edge) => {
    const text = edgeText(edge);
    return {
      id: edge.id,
      sources: [edge.kind === 'root' ? ANY_STATE : edge.from],
      targets: [edge.to],
      labels: [{ text, width: textWidth(text, FONT.label) + 4, height: FONT.label + 4 }],
    };
  });
  const elk = new (await loadElk())();
  const input: ElkNode = {
    id: graph.id,
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.edgeRouting': 'POLYLINE',
      'elk.layered.spacing.nodeNodeBetweenLayers': '50',
      'elk.spacing.nodeNode': '40',
      'elk.spacing.edgeLabel': '4',
      'elk.spacing.edgeEdge': '12',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      // The states' declaration order is the loop's order: back edges are the ones that go up.
      'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.padding': '[top=20,left=20,bottom=20,right=20]',
      'elk.randomSeed': '1',
    },
    children,
    edges,
  };
  const result = await elk.layout(input);
  const nodes = (result.children ?? []).map(
    (n): LaidOutNode => ({
      id: n.id,
      x: round(n.x ?? 0),
      y: round(n.y ?? 0),
      width: round(n.width ?? 0),
      height: round(n.height ?? 0),
      detail: nodeDetail(graph, n.id),
    }),
  );
  const laidOutEdges = (result.edges ?? []).map((e): LaidOutEdge => {
    const label = e.labels?.[0];
    return {
      id: e.id,
      from: e.sources[0]!,
      to: e.targets[0]!,
      sections: (e.sections ?? []).map((s) => ({
        startPoint: point(s.startPoint),
        endPoint: point(s.endPoint),
        bendPoints: (s.bendPoints ?? []).map(point),
      })),
      label: label
        ? { text: label.text ?? '', x: round(label.x ?? 0), y: round(label.y ?? 0), width: round(label.width ?? 0), height: round(label.height ?? 0) }
        : null,
    };
  });
  return { width: round(result.width ?? 0), height: round(result.height ?? 0), nodes, edges: laidOutEdges };
}
