import { ENGINE_STATES, queryEngine } from '../../machines/query-engine.js';
import { chartGraph, type ChartGraph } from '../../machines/chart-graph.js';
import { edgeLines } from '../diagram/edge-groups.js';
import { layoutChart, type ChartLayout as DiagramLayout } from '../diagram/layout.js';
import { ANY_STATE, transientStates } from '../diagram/mermaid.js';
import { toSvg } from '../diagram/svg.js';
import { shippedChart } from './shipped-chart.js';

/** A point in the chart's coordinates (elkjs' shape). */
export interface Point {
  x: number;
  y: number;
}

/** What `/api/chart` sends and the page draws: positioned states and routed transitions. */
export interface ChartLayout {
  /** Set when the real layout failed and this is the bare list of states. */
  error?: string;
  width: number;
  height: number;
  nodes: Array<{
    /** The state's full path (`ask_permission.asking_user`), as the state records name it. */
    id: string;
    /** The compound state whose box it is drawn in. */
    parent?: string;
    /** A box around its children (drawn under them); its title at the top. */
    compound?: boolean;
    x: number;
    y: number;
    width: number;
    height: number;
    /** The box's second line: entry actions, invoked actors. */
    detail?: string;
    /** The same, one line each (none in the compact layout). */
    details?: string[];
    /** Entry actions and invoked actors, for the box's tooltip whatever the layout draws. */
    about?: string[];
    initial?: boolean;
    final?: boolean;
    /** Passed through without resting (only microsteps show it). */
    transient?: boolean;
    /** The box the root's handlers (ABORT, the deadline) start from. */
    root?: boolean;
  }>;
  edges: Array<{
    id: string;
    from: string;
    to: string;
    /** The event type; `''` for an eventless transition. */
    event: string;
    guard?: string;
    actions?: string[];
    kind?: string;
    label?: { text: string; x: number; y: number; width: number; height: number } | null;
    sections: Array<{ startPoint: Point; endPoint: Point; bendPoints?: Point[] }>;
    /** The label's lines (trigger, [guard], / actions), drawn on demand where the layout has no labels. */
    lines?: string[];
  }>;
  /** The same chart laid out with every label, as in the SVG diagram. */
  labelled?: ChartLayout;
}

/** The eight top-level states on a grid without transitions: what the page shows if the layout fails. */
export function placeholderChart(): ChartLayout {
  const w = 150;
  const h = 40;
  const nodes = ENGINE_STATES.map((id, k) => ({
    id,
    x: 20 + (k % 4) * (w + 40),
    y: 20 + Math.floor(k / 4) * (h + 60),
    width: w,
    height: h,
    ...(id === 'build_context' ? { initial: true } : {}),
    ...(id === 'done' ? { final: true } : {}),
  }));
  return { width: 20 + 4 * (w + 40), height: 20 + 2 * (h + 60), nodes, edges: [] };
}

/** A layout of the diagram module joined with the chart's graph: what each edge means, which states are transient. */
function joined(graph: ChartGraph, layout: DiagramLayout): ChartLayout {
  const transient = new Set(transientStates(graph));
  const edges = new Map(graph.edges.map((e) => [e.id, e]));
  return {
    width: layout.width,
    height: layout.height,
    nodes: layout.nodes.map((n) => {
      const spec = graph.nodes.find((s) => s.id === n.id);
      return {
        ...n,
        ...(spec?.initial ? { initial: true } : {}),
        ...(spec?.final ? { final: true } : {}),
        ...(transient.has(n.id) ? { transient: true } : {}),
        ...(n.id === ANY_STATE ? { root: true } : {}),
        ...(spec
          ? {
              about: [
                ...(spec.entry.length ? [`entry ${spec.entry.join(', ')}`] : []),
                ...(spec.invoke ? [`invoke ${spec.invoke.join(', ')}`] : []),
              ],
            }
          : {}),
      };
    }),
    edges: layout.edges.map((e) => {
      const spec = edges.get(e.id);
      // A root edge is drawn from the "any state" box but taken from the machine's root: keep the root's id.
      return {
        ...e,
        from: spec?.from ?? e.from,
        event: spec?.event ?? '',
        ...(spec?.guard ? { guard: spec.guard } : {}),
        ...(spec?.actions.length ? { actions: spec.actions } : {}),
        ...(spec ? { kind: spec.kind, lines: edgeLines(spec) } : {}),
      };
    }),
  };
}

/**
 * The chart for the page: a compact layout without labels, which fits the panel with the state
 * names readable (the page shows a transition's label when it is taken or hovered), and the
 * labelled layout of the SVG diagram for reading every label on demand.
 */
export async function engineChart(): Promise<ChartLayout & { svg: string }> {
  const graph = chartGraph(queryEngine);
  const labelled = await layoutChart(graph);
  return {
    ...joined(graph, await layoutChart(graph, { labels: false })),
    labelled: joined(graph, labelled),
    svg: await toSvg(graph, labelled),
  };
}

/**
 * What `/api/chart` serves: the layout shipped with the build when it is this chart's, else the
 * engine's chart laid out by elkjs now, or the bare states if that fails.
 */
export async function inspectorChart(): Promise<ChartLayout> {
  const shipped = shippedChart();
  if (shipped) return shipped as ChartLayout;
  try {
    return await engineChart();
  } catch (error) {
    return { ...placeholderChart(), error: `layout failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
