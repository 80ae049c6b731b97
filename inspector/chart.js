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
 * Whether the shown trace was recorded by this chart, from the meta record's `chart: {recorded,
 * current}` (fingerprints; recorded is null for a trace older than them). Unknown without it.
 */
export function chartProvenance(meta) {
  const chart = meta?.chart;
  if (!chart) return 'unknown';
  return chart.recorded !== null && chart.recorded === chart.current ? 'same' : 'other';
}

/**
 * The chart edges that entered a step's state: the one the trace names (`via.transition`), if this
 * chart has it. A line without that name is matched by its two states and event (an edge may end on
 * the state's parent box, which enters its initial child), but only for a trace of unknown origin:
 * a trace recorded by another chart could match an edge it never took.
 */
export function edgesOf(chart, step, previous, provenance = 'unknown') {
  if (!chart || !step?.via) return new Set();
  if (step.via.transition) return new Set(chart.edges.some(({ edge }) => edge.id === step.via.transition) ? [step.via.transition] : []);
  if (!previous || provenance !== 'unknown') return new Set();
  const event = step.via.event === 'always' ? '' : step.via.event;
  const entered = (to) => to === step.name || step.name.startsWith(`${to}.`);
  const between = chart.edges.filter(({ edge }) => edge.from === previous.name && entered(edge.to));
  const exact = between.filter(({ edge }) => (edge.event ?? '') === event);
  return new Set((exact.length > 0 ? exact : between).map(({ edge }) => edge.id));
}

/** The compound states a state is nested in, innermost first (`ask_permission` for `ask_permission.asking_user`). */
export function ancestorsOf(name) {
  const parts = (name ?? '').split('.');
  return parts.slice(0, -1).map((_, k) => parts.slice(0, parts.length - 1 - k).join('.'));
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
 * Builds the SVG once; returns the handle `highlight()` works on. With `scale` null the SVG fills
 * its container (the viewBox keeps the proportions), so the whole chart is in view; with a number
 * it is drawn that many pixels per layout unit inside a scrolling container instead.
 */
export function drawChart(container, layout, { scale = null } = {}) {
  container.textContent = '';
  const pad = 12;
  const svg = el('svg', {
    viewBox: `${-pad} ${-pad} ${layout.width + 2 * pad} ${layout.height + 2 * pad}`,
    preserveAspectRatio: 'xMidYMin meet',
    role: 'img',
    'aria-label': 'the engine statechart',
    'data-testid': 'chart-svg',
  });
  if (scale !== null) {
    svg.setAttribute('width', String(Math.round((layout.width + 2 * pad) * scale)));
    svg.setAttribute('height', String(Math.round((layout.height + 2 * pad) * scale)));
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
  // Compound states are boxes under everything else: their children, arrows and labels sit on them.
  const boxLayer = el('g', { class: 'boxes' });
  svg.insertBefore(boxLayer, edgeLayer);
  for (const node of layout.nodes ?? []) {
    const classes = [
      'state',
      node.compound && 'compound',
      node.final && 'final',
      node.initial && 'initial',
      node.transient && 'transient',
      node.root && 'root',
    ].filter(Boolean);
    const attrs = { class: classes.join(' '), 'data-state': node.id, 'data-testid': `state-${node.id}` };
    const g = el('g', node.parent ? { ...attrs, 'data-parent': node.parent } : attrs, node.compound ? boxLayer : nodeLayer);
    el('rect', { x: node.x, y: node.y, width: node.width, height: node.height, rx: node.compound ? 12 : 8, ry: node.compound ? 12 : 8 }, g);
    if (node.final)
      el('rect', { x: node.x + 3, y: node.y + 3, width: node.width - 6, height: node.height - 6, rx: 6, ry: 6, class: 'inner' }, g);
    const details = node.details ?? (node.detail ? [node.detail] : []);
    const top = details.length || node.compound;
    const title = el('text', { x: node.x + 12, y: node.y + (top ? 22 : node.height / 2 + 5), class: 'title' }, g);
    // A nested state's box sits in its parent's, which names the rest of its path.
    title.textContent = node.root ? 'any state' : node.parent ? node.id.slice(node.parent.length + 1) : node.id;
    details.forEach((line, k) => {
      const detail = el('text', { x: node.x + 12, y: node.y + 28 + 15 * k + 9, class: 'detail' }, g);
      detail.textContent = line;
    });
    const badge = el('text', { x: node.x + node.width - 6, y: node.y + 12, 'text-anchor': 'end', class: 'visits' }, g);
    // The compact layout has no detail lines: the pointer shows them with the full path.
    const tip = el('title', {}, g);
    tip.textContent = [node.root ? 'any state' : node.id, ...(node.about ?? details)].join('\n');
    nodes.set(node.id, { g, badge, node });
  }
  container.appendChild(svg);
  return { svg, nodes, edges, container };
}

/**
 * Scrolls a chart drawn at reading size so that the lit state is in view (centred when it was
 * out of view); at fit size everything already is.
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
 * Marks the chart for one step: `current` (lit) and the boxes it is nested in (`current-parent`),
 * `recent` (passed in the last few steps, so the transient states show), `visited` with a count,
 * and the transition that entered the state: `last` is a chart edge id from the trace; `taken`
 * holds the ids of the task's transitions so far.
 */
export function highlight(chart, { current, recent, visits, last, taken }) {
  if (!chart) return;
  const parents = new Set(ancestorsOf(current));
  for (const [id, { g, badge }] of chart.nodes) {
    g.classList.toggle('current', id === current);
    g.classList.toggle('current-parent', parents.has(id));
    g.classList.toggle('recent', id !== current && recent.has(id));
    g.classList.toggle('visited', visits.has(id));
    badge.textContent = visits.get(id) ? `×${visits.get(id)}` : '';
  }
  for (const { edge, g, tip } of chart.edges) {
    const isLast = last?.has(edge.id) === true;
    g.classList.toggle('last', isLast);
    tip?.classList.toggle('last', isLast);
    // Siblings share one arrow: the lit one is drawn last, on top.
    if (isLast) g.parentNode.appendChild(g);
    g.classList.toggle('taken', taken.has(edge.id));
    for (const p of g.querySelectorAll('path')) p.setAttribute('marker-end', isLast ? 'url(#arrow-last)' : 'url(#arrow)');
  }
  chart.svg.setAttribute('data-current', current ?? '');
  chart.svg.setAttribute('data-current-parent', [...parents].join(' '));
  chart.svg.setAttribute('data-last-transition', last ? [...last].join(' ') : '');
}
