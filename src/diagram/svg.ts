import type { ChartEdge, ChartGraph, EdgeKind } from '../../machines/chart-graph.js';
import type { Change } from './chart-diff.js';
import type { ViewEdge, ViewNode } from './chart-view.js';
import { ANY_STATE } from './edge-groups.js';
import {
  DEFAULT_TYPE,
  FONT,
  LINE,
  layoutChart,
  type Typography,
  nodeTitle,
  textWidth,
  type ChartLayout,
  type LaidOutNode,
  type Section,
} from './layout.js';
import { transientStates } from './mermaid.js';

const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function sectionsPath(sections: Section[]): string {
  return sections
    .map((s) => [s.startPoint, ...s.bendPoints, s.endPoint].map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' '))
    .join(' ');
}

const style = ({ font, line: _line }: Typography) => `
  .state rect { fill: #fff; stroke: #333; stroke-width: 1.2; }
  .state.transient rect { fill: #f4f4f4; stroke-dasharray: 4 3; }
  .state.final rect { stroke-width: 3; }
  .state.compound > rect { fill: #f7f9fc; stroke: #6b7a90; stroke-width: 1.6; }
  .state.root rect { fill: #fafafa; stroke: #777; stroke-dasharray: 2 2; }
  .state.active rect { fill: #ffe9a8; stroke: #c80; stroke-width: 2.5; }
  .state .title { font: 600 ${font.title}px ${FONT.family}; fill: #111; }
  .state .detail { font: ${font.detail}px ${FONT.family}; fill: #444; }
  .arrow path { fill: none; stroke: #555; stroke-width: 1.3; marker-end: url(#arrow); }
  .arrow.kind-always path { stroke-dasharray: 6 4; }
  .arrow.kind-error path { stroke: #b22; marker-end: url(#arrow-error); }
  .arrow.kind-root path { stroke: #777; stroke-dasharray: 2 3; }
  .label-box { fill: #fff; fill-opacity: 0.92; stroke: #ddd; stroke-width: 0.8; }
  .edge text { font: ${font.label}px ${FONT.family}; fill: #222; white-space: pre; }
  .edge.kind-error text { fill: #b22; }
  .edge.kind-always text { fill: #335; font-style: italic; }
  .edge.taken text { fill: #c80; font-weight: 600; }
  .arrow.heat-0 path { stroke: #c8c8c8; }
  .arrow.heat-1 path { stroke: #e6a23c; stroke-width: 1.8; }
  .arrow.heat-2 path { stroke: #e07b24; stroke-width: 2.6; }
  .arrow.heat-3 path { stroke: #d0461c; stroke-width: 3.6; }
  .arrow.heat-4 path { stroke: #a4161a; stroke-width: 4.8; }
  .edge.heat-0 text { fill: #999; }
  .state.stub rect { fill: #f2f2f2; stroke: #999; stroke-dasharray: 3 3; }
  .state.stub .title { font-weight: 400; fill: #444; }
  .state.collapsed > rect { fill: #f7f9fc; stroke: #6b7a90; stroke-width: 1.6; }
  .diff-added rect, .arrow.diff-added path { stroke: #1a7f37; stroke-width: 3; }
  .state.diff-added rect { fill: #e6f6ea; }
  .diff-removed rect, .arrow.diff-removed path { stroke: #cf222e; stroke-width: 3; stroke-dasharray: 7 4; }
  .state.diff-removed rect { fill: #fde8e8; }
  .diff-changed rect, .arrow.diff-changed path { stroke: #bf8700; stroke-width: 3; }
  .state.diff-changed > rect { fill: #fff5d6; }
  .edge.diff-added text { fill: #1a7f37; font-weight: 700; }
  .edge.diff-removed text { fill: #cf222e; font-weight: 700; text-decoration: line-through; }
  .edge.diff-changed text { fill: #8a6100; font-weight: 700; }
  .faded { opacity: 0.35; }
  .legend text { font: ${FONT.label}px ${FONT.family}; fill: #333; }
  .legend .heading { font-weight: 600; }
`;

/** 0 for never taken, then 1-4 on a log scale up to the busiest transition. */
export function heatLevel(count: number, max: number): number {
  if (count <= 0) return 0;
  if (max <= 1) return 4;
  return Math.min(4, 1 + Math.floor((3.999 * Math.log(count)) / Math.log(max)));
}

/** What an arrow is drawn as: its transitions' kind when they agree, plain otherwise. */
function arrowKind(edges: ChartEdge[]): EdgeKind | 'mixed' {
  const kinds = new Set(edges.map((e) => e.kind));
  return kinds.size === 1 ? [...kinds][0] : 'mixed';
}

const LEGEND_ROWS: Array<{ sample: 'on' | 'always' | 'error' | 'transient' | 'final' | 'root'; text: string }> = [
  { sample: 'on', text: 'an event: sent (ABORT), or done(actor) when an invoked actor answers' },
  { sample: 'always', text: 'always: eventless, taken as soon as its [guard] holds (dashed)' },
  { sample: 'error', text: 'error(actor): the invoked actor failed (red)' },
  { sample: 'transient', text: 'transient state: passed through, never rests (dashed box)' },
  { sample: 'final', text: 'final state (thick box)' },
  { sample: 'root', text: 'any state: handlers active in every state, drawn once' },
];
const LEGEND_NOTE = 'One arrow per pair of states; its label lists each transition there: trigger, [guard], / actions.';
const LEGEND_ROW = 20;

/** The legend under the chart: what dashed, red and the box styles mean. */
const HEAT_NOTE = 'Heat map: arrow colour and width grow with how often it was taken in the recorded sessions; grey: never taken.';

function legend(x: number, y: number, heat: boolean): string[] {
  const out = [`<g class="legend" transform="translate(${x},${y})">`, `  <text class="heading" x="0" y="${FONT.label}">Legend</text>`];
  LEGEND_ROWS.forEach((row, k) => {
    const top = LINE.label + 6 + k * LEGEND_ROW;
    const mid = top + LEGEND_ROW / 2 - 3;
    if (row.sample === 'on' || row.sample === 'always' || row.sample === 'error') {
      out.push(`  <g class="arrow kind-${row.sample}"><path d="M0,${mid} L44,${mid}"/></g>`);
    } else {
      out.push(`  <g class="state ${row.sample}"><rect x="2" y="${top}" width="40" height="${LEGEND_ROW - 6}" rx="5"/></g>`);
    }
    out.push(`  <text x="56" y="${mid + 4}">${escapeXml(row.text)}</text>`);
  });
  const bottom = LINE.label + 6 + LEGEND_ROWS.length * LEGEND_ROW + 12;
  out.push(`  <text x="0" y="${bottom}">${escapeXml(LEGEND_NOTE)}</text>`);
  if (heat) out.push(`  <text x="0" y="${bottom + LEGEND_ROW}">${escapeXml(HEAT_NOTE)}</text>`);
  out.push('</g>');
  return out;
}

/** Height and width the legend adds under the chart. */
export const LEGEND_SIZE = {
  height: LINE.label + 6 + LEGEND_ROWS.length * LEGEND_ROW + 24,
  width: Math.max(
    textWidth(LEGEND_NOTE, FONT.label),
    textWidth(HEAT_NOTE, FONT.label),
    ...LEGEND_ROWS.map((r) => 56 + textWidth(r.text, FONT.label)),
  ),
};

export interface SvgOptions {
  counts?: ReadonlyMap<string, number>;
  /** Draw the picture this size (a slide: 1920x1080), scaled to fit and centred; its own size otherwise. */
  size?: { width: number; height: number };
  /** The legend under the chart (default); a slide leaves it out. */
  legend?: boolean;
  /** A diff: what changed, by drawn state and edge id; everything else is drawn faded. */
  marks?: ReadonlyMap<string, Change>;
}

/**
 * A standalone SVG of the chart with a legend. Each state is `<g class="state" data-state="<id>">`,
 * each arrow `<g class="arrow" data-group="<from>><to>">`, and each transition's label block
 * `<g class="edge kind-<kind>" data-edge="<id>">`, so the inspector and tests can find them.
 * Pass a layout to reuse one; otherwise it is computed.
 * @example const svg = await toSvg(chartGraph(queryEngine)); svg.includes('data-state="call_model"') // true
 */
export async function toSvg(graph: ChartGraph, layout?: ChartLayout, options: SvgOptions = {}): Promise<string> {
  const { counts, marks } = options;
  const withLegend = options.legend ?? true;
  // In a diff, a changed thing is coloured, the rest faded: `diff-added`, `diff-removed`, `diff-changed`, `faded`.
  const mark = (...ids: string[]) => {
    if (!marks) return '';
    const found = ids.map((id) => marks.get(id)).find((m) => m !== undefined);
    return found ? ` diff-${found}` : ' faded';
  };
  const laid = layout ?? (await layoutChart(graph, { counts }));
  const t = laid.type ?? DEFAULT_TYPE;
  const max = Math.max(0, ...(counts?.values() ?? []));
  const heat = (ids: string[]) =>
    counts
      ? ` heat-${heatLevel(
          ids.reduce((n, id) => n + (counts.get(id) ?? 0), 0),
          max,
        )}`
      : '';
  const transient = new Set(transientStates(graph));
  const specs = new Map(graph.edges.map((e) => [e.id, e]));
  const width = Math.ceil(withLegend ? Math.max(laid.width, LEGEND_SIZE.width + 40) : laid.width);
  const height = Math.ceil(laid.height + (withLegend ? LEGEND_SIZE.height + (counts ? LEGEND_ROW : 0) : 0));
  const shown = options.size ?? { width, height };
  const view = 'view' in graph ? ` data-view="${escapeXml(String(graph.view))}"` : '';
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${shown.width}" height="${shown.height}" viewBox="0 0 ${width} ${height}"${options.size ? ' preserveAspectRatio="xMidYMid meet"' : ''} data-chart="${escapeXml(graph.id)}"${view}>`,
    `<!-- generated from machines/ by src/diagram (npm run diagrams); do not edit -->`,
    `<style>${style(t)}</style>`,
    `<defs>`,
    `<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker>`,
    `<marker id="arrow-error" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#b22"/></marker>`,
    `</defs>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
  ];
  const stateBox = (node: LaidOutNode): string[] => {
    const spec: ViewNode | undefined = graph.nodes.find((n) => n.id === node.id);
    const classes = [
      'state',
      ...(node.compound ? ['compound'] : []),
      ...(spec?.inner ? ['collapsed'] : []),
      ...(spec?.stub ? ['stub'] : []),
      ...(node.id === ANY_STATE ? ['root'] : []),
      ...(transient.has(node.id) ? ['transient'] : []),
      ...(spec?.final ? ['final'] : []),
      ...(spec?.initial ? ['initial'] : []),
    ];
    const changed = mark(node.id).trim();
    return [
      `<g class="${[...classes, ...(changed ? [changed] : [])].join(' ')}" data-state="${escapeXml(node.id)}"${node.parent ? ` data-parent="${escapeXml(node.parent)}"` : ''} transform="translate(${node.x},${node.y})">`,
      `  <rect width="${node.width}" height="${node.height}" rx="${node.compound ? 12 : 8}"/>`,
      `  <text class="title" x="12" y="${8 + t.font.title}">${escapeXml(nodeTitle(graph, node.id))}</text>`,
      ...node.details.map(
        (detail, k) =>
          `  <text class="detail" x="12" y="${8 + t.line.title + k * t.line.detail + t.font.detail}">${escapeXml(detail)}</text>`,
      ),
      '</g>',
    ];
  };
  // The top-level boxes first: their children, the arrows and the labels are drawn over them.
  for (const node of laid.nodes.filter((n) => n.compound)) out.push(...stateBox(node));
  const groups = new Map<string, typeof laid.edges>();
  for (const edge of laid.edges) groups.set(edge.group, [...(groups.get(edge.group) ?? []), edge]);
  for (const [group, edges] of groups) {
    const kind = arrowKind(edges.map((e) => specs.get(e.id)).filter((e): e is ChartEdge => e !== undefined));
    out.push(
      `<g class="arrow kind-${kind}${heat(edges.map((e) => e.id))}${mark(...edges.map((e) => e.id))}" data-group="${escapeXml(group)}"><path d="${sectionsPath(edges[0].sections)}"/></g>`,
    );
  }
  for (const [, edges] of groups) {
    const box = edges[0]?.label;
    if (!box) continue;
    const boxHeight = edges.at(-1)!.label!.y + edges.at(-1)!.label!.height - box.y;
    out.push(`<rect class="label-box" x="${box.x}" y="${box.y - 2}" width="${box.width}" height="${Math.round(boxHeight + 4)}" rx="3"/>`);
    for (const edge of edges) {
      const spec: ViewEdge | ChartEdge | undefined = specs.get(edge.id);
      const members = spec && 'members' in spec ? ` data-members="${escapeXml((spec as ViewEdge).members.join(' '))}"` : '';
      out.push(
        `<g class="edge kind-${spec?.kind ?? 'on'}${spec?.internal ? '' : heat([edge.id])}${mark(edge.id)}" data-edge="${escapeXml(edge.id)}" data-from="${escapeXml(spec?.from ?? edge.from)}" data-to="${escapeXml(edge.to)}"${members}>`,
      );
      edge.label!.lines.forEach((line, k) => {
        out.push(
          `  <text x="${edge.label!.x + 4}" y="${Math.round((edge.label!.y + k * t.line.label + t.font.label) * 10) / 10}">${escapeXml(line)}</text>`,
        );
      });
      out.push('</g>');
    }
  }
  for (const node of laid.nodes.filter((n) => !n.compound)) out.push(...stateBox(node));
  if (withLegend) out.push(...legend(20, Math.round(laid.height), counts !== undefined));
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
