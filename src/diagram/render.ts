import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph, type ChartGraph } from '../../machines/chart-graph.js';
import { type ChartDiff, viewMarks } from './chart-diff.js';
import { chartView, type LabelMode, type ViewGraph } from './chart-view.js';
import { type CoverageChange, diffMarkdown } from './diff-markdown.js';
import { fitLayout } from './fit.js';
import { SLIDE, type Size } from './size.js';
import type { DiagramFormat, TextFormat } from './formats.js';
import { layoutChart, scaledType, type Typography } from './layout.js';
import { toMermaid } from './mermaid.js';
import { rasterize } from './rasterize.js';
import { toSvg } from './svg.js';
import { viewMarkdown } from './view-markdown.js';

export { DIAGRAM_FORMATS, type DiagramFormat } from './formats.js';

export interface DiagramOptions {
  /** Times each transition was taken (a heat map). */
  counts?: ReadonlyMap<string, number>;
  /** Collapse states below this depth (1: the overview). */
  depth?: number;
  /** Expand one state, the rest as stubs. */
  state?: string;
  labels?: LabelMode;
  /** The picture's size (SVG, PNG, PDF); a view fits 1920x1080 unless told otherwise. */
  size?: Size;
  /** The chart to draw; the one this xagent runs by default. */
  graph?: ChartGraph;
  /** Draw a diff: both charts in one, what changed coloured, the rest faded (the overview unless `state`). */
  diff?: ChartDiff & { labels: { before: string; after: string; command: string }; coverage?: CoverageChange[] };
}

/** The graph model as pretty JSON, with a trailing newline. */
export function toJSON(graph: ChartGraph): string {
  return `${JSON.stringify(graph, null, 2)}\n`;
}

/** State names in a view are drawn larger than labels: on a slide the names are what is read first. */
export const VIEW_TYPE: Record<'overview' | 'state', Typography> = {
  overview: scaledType({ title: 2.4, label: 1.2 }),
  state: scaledType({ title: 1.5, label: 1.2 }),
};

/** The view the options ask for: the overview, one state, the chart with other labels, or the chart itself (null). */
export function viewFor(graph: ChartGraph, options: DiagramOptions): ViewGraph | null {
  if (options.state !== undefined) return chartView(graph, { state: options.state, labels: options.labels ?? 'guard' });
  if (options.depth !== undefined) return chartView(graph, { depth: options.depth, labels: options.labels ?? 'guard' });
  if (options.labels !== undefined) return chartView(graph, { labels: options.labels });
  return null;
}

/**
 * The SVG of a view, laid out to be drawn largest at its size, or of the whole chart with its legend.
 * @example const { svg, size } = await drawSvg({ depth: 1 }); size // { width: 1920, height: 1080 }
 */
export async function drawSvg(options: DiagramOptions = {}): Promise<{ svg: string; size: Size }> {
  const graph = options.graph ?? chartGraph(queryEngine);
  const { counts } = options;
  const view = viewFor(graph, options);
  const marks = options.diff ? viewMarks(view ?? graph, options.diff.marks) : undefined;
  if (view && (options.depth !== undefined || options.state !== undefined)) {
    const size = options.size ?? SLIDE;
    const type = options.state !== undefined ? VIEW_TYPE.state : VIEW_TYPE.overview;
    const layout = await fitLayout(view, size, { type, oneLine: true, ...(counts ? { counts } : {}) });
    return { svg: await toSvg(view, layout, { counts, size, legend: false, ...(marks ? { marks } : {}) }), size };
  }
  const drawn = view ?? graph;
  const svg = await toSvg(drawn, await layoutChart(drawn, { counts }), {
    counts,
    ...(options.size ? { size: options.size } : {}),
    ...(marks ? { marks } : {}),
  });
  const own = /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg);
  return { svg, size: options.size ?? { width: Number(own?.[1]), height: Number(own?.[2]) } };
}

/**
 * The engine's statechart in one format, generated from the machine (for `xagent diagram`): text for
 * mermaid, svg, json and markdown, bytes for png and pdf. With `counts`, a heat map.
 * @example process.stdout.write(await renderDiagram('mermaid', { depth: 1 }));
 */
export async function renderDiagram(format: TextFormat, options?: DiagramOptions): Promise<string>;
export async function renderDiagram(format: DiagramFormat, options?: DiagramOptions): Promise<string | Uint8Array>;
export async function renderDiagram(format: DiagramFormat, given: DiagramOptions = {}): Promise<string | Uint8Array> {
  const { diff } = given;
  // A diff is drawn on both charts in one, as the overview unless one state is asked for.
  const options = diff ? { ...given, graph: diff.union, ...(given.state === undefined ? { depth: given.depth ?? 1 } : {}) } : given;
  const graph = options.graph ?? chartGraph(queryEngine);
  const { counts } = options;
  const drawn = viewFor(graph, options) ?? graph;
  switch (format) {
    case 'mermaid':
      return toMermaid(drawn, { counts });
    case 'svg':
      return (await drawSvg({ ...options, graph })).svg;
    case 'json':
      if (diff) {
        const { union: _union, marks: _marks, labels: _labels, ...summary } = diff;
        return `${JSON.stringify(summary, null, 2)}\n`;
      }
      return toJSON(counts ? { ...drawn, edges: drawn.edges.map((e) => ({ ...e, count: counts.get(e.id) ?? 0 })) } : drawn);
    case 'markdown':
      if (diff) return diffMarkdown(diff, diff.labels, diff.coverage);
      return viewMarkdown(drawn, toMermaid(drawn, { counts }));
    case 'png':
    case 'pdf': {
      const { svg, size } = await drawSvg({ ...options, graph });
      return rasterize(svg, format, size);
    }
    default: {
      const unreachable: never = format;
      throw new Error(`unknown diagram format: ${String(unreachable)}`);
    }
  }
}
