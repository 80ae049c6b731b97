import type { ChartGraph } from './chart-graph.js';
import { FONT, layoutChart, type ChartLayout, type LaidOutEdge } from './layout.js';
import { ANY_STATE, transientStates } from './mermaid.js';

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function edgePath(edge: LaidOutEdge): string {
  return edge.sections
    .map((s) => [s.startPoint, ...s.bendPoints, s.endPoint].map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' '))
    .join(' ');
}

const STYLE = `
  .state rect { fill: #fff; stroke: #333; stroke-width: 1.2; }
  .state.transient rect { fill: #f4f4f4; stroke-dasharray: 4 3; }
  .state.final rect { stroke-width: 2.5; }
  .state.root rect { fill: none; stroke: #777; stroke-dasharray: 2 2; }
  .state.active rect { fill: #ffe9a8; stroke: #c80; stroke-width: 2.5; }
  .state .title { font: 600 ${FONT.title}px ${FONT.family}; fill: #111; }
  .state .detail { font: ${FONT.detail}px ${FONT.family}; fill: #555; }
  .edge path { fill: none; stroke: #555; stroke-width: 1.1; marker-end: url(#arrow); }
  .edge.kind-always path { stroke-dasharray: 5 3; }
  .edge.kind-error path { stroke: #b33; }
  .edge.kind-root path { stroke: #888; stroke-dasharray: 2 2; }
  .edge.taken path { stroke: #c80; stroke-width: 2.5; }
  .edge text { font: ${FONT.label}px ${FONT.family}; fill: #333; }
`;

/**
 * A standalone SVG of the chart. Each state is `<g class="state" data-state="<id>">` and each
 * transition `<g class="edge kind-<kind>" data-edge="<id>">`, so the inspector can add `active`
 * or `taken` to light them up. Pass a layout to reuse one; otherwise it is computed.
 * @example const svg = await toSvg(chartGraph(queryEngine)); svg.includes('data-state="call_model"') // true
 */
export async function toSvg(graph: ChartGraph, layout?: ChartLayout): Promise<string> {
  const laid = layout ?? (await layoutChart(graph));
  const transient = new Set(transientStates(graph));
  const kinds = new Map(graph.edges.map((e) => [e.id, e.kind]));
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${laid.width}" height="${laid.height}" viewBox="0 0 ${laid.width} ${laid.height}" data-chart="${escapeXml(graph.id)}">`,
    `<!-- generated from machines/ by src/diagram (npm run diagrams); do not edit -->`,
    `<style>${STYLE}</style>`,
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
  ];
  for (const edge of laid.edges) {
    out.push(
      `<g class="edge kind-${kinds.get(edge.id) ?? 'on'}" data-edge="${escapeXml(edge.id)}" data-from="${escapeXml(edge.from)}" data-to="${escapeXml(edge.to)}">`,
      `  <path d="${edgePath(edge)}"/>`,
    );
    if (edge.label) {
      out.push(`  <text x="${edge.label.x + 2}" y="${edge.label.y + edge.label.height - 4}">${escapeXml(edge.label.text)}</text>`);
    }
    out.push('</g>');
  }
  for (const node of laid.nodes) {
    const spec = graph.nodes.find((n) => n.id === node.id);
    const classes = [
      'state',
      ...(node.id === ANY_STATE ? ['root'] : []),
      ...(transient.has(node.id) ? ['transient'] : []),
      ...(spec?.final ? ['final'] : []),
      ...(spec?.initial ? ['initial'] : []),
    ];
    const title = node.id === ANY_STATE ? `any state (${graph.id})` : node.id;
    out.push(
      `<g class="${classes.join(' ')}" data-state="${escapeXml(node.id)}" transform="translate(${node.x},${node.y})">`,
      `  <rect width="${node.width}" height="${node.height}" rx="8"/>`,
      `  <text class="title" x="12" y="${FONT.title + 6}">${escapeXml(title)}</text>`,
    );
    if (node.detail) out.push(`  <text class="detail" x="12" y="${FONT.title + 6 + FONT.detail + 8}">${escapeXml(node.detail)}</text>`);
    out.push('</g>');
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
