// Draws the statechart from the server's layout (positions computed by elkjs on the server) and
// lights the state of the step being shown. Only DOM APIs, no innerHTML: names come from the server.

const SVG_NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function pathOf(section) {
  const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
  return points.map((p, k) => `${k === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
}

/**
 * The chart edges that entered a step's state. The trace names the edge (`via.transition`); lines
 * recorded before it did are matched by their two states and the event, which can leave several.
 */
export function edgesOf(chart, step, previous) {
  if (!chart || !step?.via) return new Set();
  if (step.via.transition) return new Set([step.via.transition]);
  if (!previous) return new Set();
  const event = step.via.event === 'always' ? '' : step.via.event;
  const between = chart.edges.filter(({ edge }) => edge.from === previous.name && edge.to === step.name);
  const exact = between.filter(({ edge }) => (edge.event ?? '') === event);
  return new Set((exact.length > 0 ? exact : between).map(({ edge }) => edge.id));
}

/** Builds the SVG once; returns the handle `highlight()` works on. */
export function drawChart(container, layout) {
  container.textContent = '';
  const pad = 12;
  const svg = el('svg', {
    viewBox: `${-pad} ${-pad} ${layout.width + 2 * pad} ${layout.height + 2 * pad}`,
    width: layout.width + 2 * pad,
    height: layout.height + 2 * pad,
    role: 'img',
    'aria-label': 'the engine statechart',
    'data-testid': 'chart-svg',
  });
  const defs = el('defs', {}, svg);
  for (const [id, cls] of [['arrow', 'arrow'], ['arrow-last', 'arrow last']]) {
    const marker = el('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: cls }, marker);
  }
  const edgeLayer = el('g', { class: 'edges' }, svg);
  const nodeLayer = el('g', { class: 'nodes' }, svg);
  const edges = [];
  for (const edge of layout.edges ?? []) {
    const g = el('g', { class: `edge kind-${edge.kind ?? 'on'}`, 'data-edge-id': edge.id, 'data-from': edge.from, 'data-to': edge.to, 'data-event': edge.event ?? '' }, edgeLayer);
    for (const section of edge.sections ?? []) el('path', { d: pathOf(section), 'marker-end': 'url(#arrow)' }, g);
    // A label is a block of lines (trigger, [guard], / actions) on the arrow it shares with its siblings.
    (edge.label?.lines ?? (edge.label?.text ? [edge.label.text] : [])).forEach((line, k) => {
      const text = el('text', { x: edge.label.x + 4, y: edge.label.y + 12 + k * 15, class: 'edge-label' }, g);
      text.textContent = line;
    });
    const title = el('title', {}, g);
    title.textContent = `${edge.from} → ${edge.to}${edge.event ? ` on ${edge.event}` : ' (always)'}${edge.guard ? ` if ${edge.guard}` : ''}${edge.actions ? ` / ${edge.actions.join(', ')}` : ''}`;
    edges.push({ edge, g });
  }
  const nodes = new Map();
  for (const node of layout.nodes ?? []) {
    const classes = ['state', node.final && 'final', node.initial && 'initial', node.transient && 'transient', node.root && 'root'].filter(Boolean);
    const g = el('g', { class: classes.join(' '), 'data-state': node.id, 'data-testid': `state-${node.id}` }, nodeLayer);
    el('rect', { x: node.x, y: node.y, width: node.width, height: node.height, rx: 8, ry: 8 }, g);
    if (node.final) el('rect', { x: node.x + 3, y: node.y + 3, width: node.width - 6, height: node.height - 6, rx: 6, ry: 6, class: 'inner' }, g);
    const title = el('text', { x: node.x + 12, y: node.y + (node.detail ? 19 : node.height / 2 + 5), class: 'title' }, g);
    title.textContent = node.root ? 'any state' : node.id;
    if (node.detail) {
      const detail = el('text', { x: node.x + 12, y: node.y + 37, class: 'detail' }, g);
      detail.textContent = node.detail;
    }
    const badge = el('text', { x: node.x + node.width - 6, y: node.y + 11, 'text-anchor': 'end', class: 'visits' }, g);
    nodes.set(node.id, { g, badge });
  }
  container.appendChild(svg);
  return { svg, nodes, edges };
}

/**
 * Marks the chart for one step: `current` (lit), `recent` (passed in the last few steps, so the
 * transient states show), `visited` with a count, and the transition that entered the state:
 * `last` is a chart edge id from the trace; `taken` holds the ids of the task's transitions so far.
 */
export function highlight(chart, { current, recent, visits, last, taken }) {
  if (!chart) return;
  for (const [id, { g, badge }] of chart.nodes) {
    g.classList.toggle('current', id === current);
    g.classList.toggle('recent', id !== current && recent.has(id));
    g.classList.toggle('visited', visits.has(id));
    badge.textContent = visits.get(id) ? `×${visits.get(id)}` : '';
  }
  for (const { edge, g } of chart.edges) {
    const isLast = last !== undefined && last.has(edge.id);
    g.classList.toggle('last', isLast);
    g.classList.toggle('taken', taken.has(edge.id));
    for (const p of g.querySelectorAll('path')) p.setAttribute('marker-end', isLast ? 'url(#arrow-last)' : 'url(#arrow)');
  }
  chart.svg.setAttribute('data-current', current ?? '');
  chart.svg.setAttribute('data-last-transition', last ? [...last].join(' ') : '');
}
