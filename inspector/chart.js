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

/** The point a label is pinned to: the middle of the edge's longest straight segment. */
function anchorOf(sections) {
  let best = null;
  for (const section of sections ?? []) {
    const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
    for (let k = 1; k < points.length; k++) {
      const a = points[k - 1];
      const b = points[k];
      const length = Math.hypot(b.x - a.x, b.y - a.y);
      if (!best || length > best.length) best = { length, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    }
  }
  return best ?? { x: 0, y: 0 };
}

const TIP_FONT = 13;
const TIP_LINE = 16;

/**
 * A label drawn on demand (the transition just taken, or the one under the pointer) where the
 * compact layout has no room for all of them; kept inside the chart's box.
 */
function drawTip(g, edge, layout) {
  const lines = edge.lines ?? [];
  if (lines.length === 0) return;
  const width = Math.max(...lines.map((l) => l.length)) * TIP_FONT * 0.62 + 12;
  const height = lines.length * TIP_LINE + 6;
  const at = anchorOf(edge.sections);
  const x = Math.max(0, Math.min(at.x + 8, layout.width - width));
  const y = Math.max(0, Math.min(at.y - height / 2, layout.height - height));
  const tip = el('g', { class: 'edge-tip', 'data-testid': 'edge-tip' }, g);
  el('rect', { x, y, width, height, rx: 4, ry: 4 }, tip);
  lines.forEach((line, k) => {
    const text = el('text', { x: x + 6, y: y + 4 + TIP_FONT + k * TIP_LINE }, tip);
    text.textContent = line;
  });
}

/**
 * Builds the SVG once; returns the handle `highlight()` works on. The SVG fills its container
 * (the panel decides the size; the viewBox keeps the proportions), so at fit size the whole chart
 * is in view; `zoom` draws it larger inside a scrolling container instead.
 */
export function drawChart(container, layout, { zoom = 1 } = {}) {
  container.textContent = '';
  const pad = 12;
  const svg = el('svg', {
    viewBox: `${-pad} ${-pad} ${layout.width + 2 * pad} ${layout.height + 2 * pad}`,
    preserveAspectRatio: 'xMidYMin meet',
    role: 'img',
    'aria-label': 'the engine statechart',
    'data-testid': 'chart-svg',
  });
  if (zoom !== 1) {
    svg.setAttribute('width', String(Math.round((layout.width + 2 * pad) * zoom)));
    svg.setAttribute('height', String(Math.round((layout.height + 2 * pad) * zoom)));
  }
  const defs = el('defs', {}, svg);
  for (const [id, cls] of [
    ['arrow', 'arrow'],
    ['arrow-last', 'arrow last'],
  ]) {
    const marker = el(
      'marker',
      { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      defs,
    );
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: cls }, marker);
  }
  const edgeLayer = el('g', { class: 'edges' }, svg);
  const nodeLayer = el('g', { class: 'nodes' }, svg);
  const tipLayer = el('g', { class: 'tips' }, svg);
  const edges = [];
  for (const edge of layout.edges ?? []) {
    const g = el(
      'g',
      {
        class: `edge kind-${edge.kind ?? 'on'}`,
        'data-edge-id': edge.id,
        'data-from': edge.from,
        'data-to': edge.to,
        'data-event': edge.event ?? '',
      },
      edgeLayer,
    );
    for (const section of edge.sections ?? []) el('path', { d: pathOf(section), 'marker-end': 'url(#arrow)' }, g);
    // A wide invisible stroke makes a thin arrow easy to hover.
    for (const section of edge.sections ?? []) el('path', { d: pathOf(section), class: 'hit' }, g);
    // A label is a block of lines (trigger, [guard], / actions) on the arrow it shares with its siblings.
    (edge.label?.lines ?? (edge.label?.text ? [edge.label.text] : [])).forEach((line, k) => {
      const text = el('text', { x: edge.label.x + 4, y: edge.label.y + 12 + k * 15, class: 'edge-label' }, g);
      text.textContent = line;
    });
    const title = el('title', {}, g);
    title.textContent = `${edge.from} → ${edge.to}${edge.event ? ` on ${edge.event}` : ' (always)'}${edge.guard ? ` if ${edge.guard}` : ''}${edge.actions ? ` / ${edge.actions.join(', ')}` : ''}`;
    // Tips sit above the states, in their own layer; the edge's classes show or hide them.
    const tip = edge.label ? null : el('g', { class: 'tip-holder', 'data-tip-for': edge.id }, tipLayer);
    if (tip) {
      drawTip(tip, edge, layout);
      g.addEventListener('pointerenter', () => tip.classList.add('hover'));
      g.addEventListener('pointerleave', () => tip.classList.remove('hover'));
    }
    edges.push({ edge, g, tip });
  }
  const nodes = new Map();
  for (const node of layout.nodes ?? []) {
    const classes = ['state', node.final && 'final', node.initial && 'initial', node.transient && 'transient', node.root && 'root'].filter(
      Boolean,
    );
    const g = el('g', { class: classes.join(' '), 'data-state': node.id, 'data-testid': `state-${node.id}` }, nodeLayer);
    el('rect', { x: node.x, y: node.y, width: node.width, height: node.height, rx: 8, ry: 8 }, g);
    if (node.final)
      el('rect', { x: node.x + 3, y: node.y + 3, width: node.width - 6, height: node.height - 6, rx: 6, ry: 6, class: 'inner' }, g);
    const details = node.details ?? (node.detail ? [node.detail] : []);
    const title = el('text', { x: node.x + 12, y: node.y + (details.length ? 22 : node.height / 2 + 5), class: 'title' }, g);
    title.textContent = node.root ? 'any state' : node.id;
    details.forEach((line, k) => {
      const detail = el('text', { x: node.x + 12, y: node.y + 28 + 15 * k + 9, class: 'detail' }, g);
      detail.textContent = line;
    });
    const badge = el('text', { x: node.x + node.width - 6, y: node.y + 12, 'text-anchor': 'end', class: 'visits' }, g);
    nodes.set(node.id, { g, badge, node });
  }
  container.appendChild(svg);
  return { svg, nodes, edges, container };
}

/**
 * Scrolls a zoomed chart so that the lit state is in view (centred when it was out of view);
 * at fit size everything already is.
 */
export function keepInView(chart, current) {
  const entry = chart?.nodes.get(current);
  if (!entry) return;
  const box = entry.g.getBoundingClientRect();
  const view = chart.container.getBoundingClientRect();
  const inside = box.left >= view.left && box.right <= view.right && box.top >= view.top && box.bottom <= view.bottom;
  if (inside) return;
  chart.container.scrollBy({
    left: box.left + box.width / 2 - (view.left + view.width / 2),
    top: box.top + box.height / 2 - (view.top + view.height / 2),
  });
}

/** Drag to pan a zoomed chart (its container scrolls). */
export function enablePan(container) {
  let from = null;
  container.addEventListener('pointerdown', (e) => {
    if (!container.classList.contains('zoomed')) return;
    from = { x: e.clientX, y: e.clientY, left: container.scrollLeft, top: container.scrollTop };
    container.setPointerCapture(e.pointerId);
  });
  container.addEventListener('pointermove', (e) => {
    if (!from) return;
    container.scrollLeft = from.left - (e.clientX - from.x);
    container.scrollTop = from.top - (e.clientY - from.y);
  });
  const stop = () => (from = null);
  container.addEventListener('pointerup', stop);
  container.addEventListener('pointercancel', stop);
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
  for (const { edge, g, tip } of chart.edges) {
    const isLast = last !== undefined && last.has(edge.id);
    g.classList.toggle('last', isLast);
    tip?.classList.toggle('last', isLast);
    // Siblings share one arrow: the lit one is drawn last, on top.
    if (isLast) g.parentNode.appendChild(g);
    g.classList.toggle('taken', taken.has(edge.id));
    for (const p of g.querySelectorAll('path')) p.setAttribute('marker-end', isLast ? 'url(#arrow-last)' : 'url(#arrow)');
  }
  chart.svg.setAttribute('data-current', current ?? '');
  chart.svg.setAttribute('data-last-transition', last ? [...last].join(' ') : '');
}
