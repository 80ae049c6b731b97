// The inspector page: keeps the records the server streams (the whole history on connect, then
// each new one), and shows the run at one step: the head while following live, or any earlier
// step picked with the buttons or the scrubber. A step is a `state` record: a state entered.

import { chartProvenance, drawChart, edgesOf, enablePan, highlight, keepInView } from './chart.js';
import { embeddedRun } from './embedded.js';
import { renderStepPanels, taskStartIndex } from './step-panels.js';
import { liveAgents, renderAgentsStrip } from './agents-strip.js';
import { KINDS, renderCost, renderFilters, renderGauges, renderLog, renderStop, renderTools } from './panels.js';

const RECENT_STEPS = 4;

/** `steps`: the state records of the agent shown (`view.agent`); `stepsOf`: every agent's, by path. */
const model = { records: [], steps: [], stepsOf: new Map([['main', []]]), result: null };
const agentOf = (record) => record.agent ?? 'main';
const view = {
  follow: true,
  cursor: -1,
  filters: new Set(KINDS.filter((k) => k !== 'usage')),
  chart: null,
  layout: null,
  /** The whole chart fitted to the panel; by default it is drawn at reading size and scrolls to the lit state. */
  fit: false,
  labels: false,
  /** Whose chart is drawn: `main`, or a subagent opened from its task card (`main/task-1`). */
  agent: 'main',
};
/** Screen pixels per layout unit at reading size: state names at 14 px. */
const READING_SCALE = 1;
const $ = (id) => document.getElementById(id);
const exported = embeddedRun();

// The token is in the cookie the page was served with; keep it out of the address bar and history.
if (location.search.includes('token=')) history.replaceState(null, '', location.pathname);

function add(record) {
  if (record.i < model.records.length) return; // already have it (a reconnect resends from the last id)
  model.records.push(record);
  if (record.kind === 'state') {
    const agent = agentOf(record);
    if (!model.stepsOf.has(agent)) model.stepsOf.set(agent, []);
    model.stepsOf.get(agent).push(record.i);
  }
  if (record.kind === 'meta') model.result = null;
  if (record.kind === 'result' && agentOf(record) === 'main') model.result = record;
}

/** Shows the chart of `agent`, following it live from its last step. */
function showAgent(agent) {
  view.agent = agent;
  view.follow = true;
  render();
}

/** The records as they were at step `k`: up to the next state entered. */
function sliceAt(k) {
  if (k < 0 || model.steps.length === 0) return { state: null, end: model.records.length };
  const next = model.steps[k + 1];
  return { state: model.records[model.steps[k]], end: next === undefined ? model.records.length : next };
}

function lastOf(records, kind) {
  for (let j = records.length - 1; j >= 0; j--) if (records[j].kind === kind) return records[j];
  return null;
}

let scheduled = false;
function render() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    draw();
  });
}

function draw() {
  model.steps = model.stepsOf.get(view.agent) ?? [];
  $('agent-bar').hidden = view.agent === 'main';
  $('agent-path').textContent = view.agent;
  $('chart-panel').dataset.agent = view.agent;
  const last = model.steps.length - 1;
  if (view.follow) view.cursor = last;
  view.cursor = Math.max(Math.min(view.cursor, last), last >= 0 ? 0 : -1);
  const { state, end } = sliceAt(view.cursor);
  // The agent shown: its own records (and the run's meta), so its steps, tools and stop are its own.
  const records = model.records.slice(0, end).filter((r) => r.kind === 'meta' || agentOf(r) === view.agent);
  const meta = lastOf(records, 'meta');
  // Only this task's steps: a resumed or interactive session has several.
  const taskStart = taskStartIndex(records, records.length);
  const taskStartI = records[taskStart]?.i ?? 0;
  const stepRecords = model.steps
    .slice(0, view.cursor + 1)
    .filter((i) => i >= taskStartI)
    .map((i) => model.records[i]);

  const visits = new Map();
  const taken = new Set();
  let enteredBy;
  const provenance = chartProvenance(meta);
  stepRecords.forEach((s, k) => {
    visits.set(s.name, (visits.get(s.name) ?? 0) + 1);
    enteredBy = edgesOf(view.chart, s, stepRecords[k - 1], provenance);
    for (const id of enteredBy) taken.add(id);
  });
  $('chart-note').hidden = provenance !== 'other';
  const recent = new Set(stepRecords.slice(-RECENT_STEPS).map((s) => s.name));
  highlight(view.chart, { current: state?.name, recent, visits, last: enteredBy, taken });
  if (!view.fit) keepInView(view.chart, state?.name);

  $('current-state').textContent = state ? state.name : '–';
  $('current-state').dataset.state = state?.name ?? '';
  const trail = stepRecords.slice(-14);
  $('trail').replaceChildren(
    ...trail.map((s, k) => {
      const li = document.createElement('li');
      li.textContent = s.name;
      li.setAttribute('data-testid', 'trail-item');
      li.dataset.state = s.name;
      if (k === trail.length - 1) li.className = 'now';
      return li;
    }),
  );

  const scrubber = $('scrubber');
  scrubber.max = String(Math.max(0, last));
  scrubber.value = String(Math.max(0, view.cursor));
  scrubber.disabled = last < 0;
  $('step-label').textContent =
    last < 0
      ? 'no steps yet'
      : `step ${view.cursor + 1} / ${last + 1}${view.follow && meta?.mode === 'live' && !model.result ? ' (live)' : ''}`;
  $('step-label').dataset.step = String(view.cursor);
  $('follow-live').classList.toggle('on', view.follow);
  $('follow-live').setAttribute('aria-pressed', String(view.follow));

  const result = lastOf(records.slice(taskStart), 'result');
  const limits = meta?.limits ?? {};
  const startedAt = meta ? Date.parse(meta.ts) : NaN;
  const live = view.follow && !result && meta?.mode === 'live';
  const at = live ? Date.now() : state ? Date.parse(state.ts) : startedAt;
  renderCost(result);
  renderGauges({ state, limits, elapsedMs: at - startedAt });
  renderStop(result);
  const notice = lastOf(records, 'notice');
  $('notice').hidden = !notice;
  $('notice').textContent = notice ? notice.message : '';

  renderTools(records.slice(taskStart), { agent: view.agent, openAgent: showAgent });
  // The agents alive at the step shown (every agent's records up to it), one chip each.
  renderAgentsStrip($('agents-strip'), liveAgents(model.records.slice(0, end), agentOf), view.agent, showAgent);
  const counts = new Map();
  for (const r of records) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  renderFilters(view.filters, counts, (kind, on) => {
    if (on) view.filters.add(kind);
    else view.filters.delete(kind);
    render();
  });
  renderLog(model.records, end, view.filters, state?.i);

  if (meta) {
    $('meta-session').textContent = meta.session_id;
    $('meta-model').textContent = meta.model ?? (meta.mode === 'replay' ? 'replay' : '–');
    $('meta-workspace').textContent = meta.workspace ?? meta.source ?? '–';
  }
  renderStepPanels({ records, allRecords: model.records, end, steps: model.steps, follow: view.follow, exported: exported !== null, live });
}

/** (Re)draws the chart: the compact layout, or the labelled one; fitted, or at reading size. */
function drawLayout() {
  if (!view.layout) return;
  const layout = view.labels && view.layout.labelled ? view.layout.labelled : view.layout;
  $('chart').classList.toggle('zoomed', !view.fit);
  view.chart = drawChart($('chart'), layout, { scale: view.fit ? null : READING_SCALE });
  $('chart').dataset.ready = 'true';
  render();
}

function go(step) {
  view.follow = false;
  view.cursor = step;
  render();
}

$('step-first').addEventListener('click', () => go(0));
$('step-back').addEventListener('click', () => go(view.cursor - 1));
$('step-forward').addEventListener('click', () => go(view.cursor + 1));
$('scrubber').addEventListener('input', (e) => go(Number(e.target.value)));
$('chart-zoom').addEventListener('click', () => {
  view.fit = !view.fit;
  $('chart-zoom').setAttribute('aria-pressed', String(view.fit));
  drawLayout();
});
$('chart-labels').addEventListener('click', () => {
  view.labels = !view.labels;
  $('chart-labels').setAttribute('aria-pressed', String(view.labels));
  drawLayout();
});
enablePan($('chart'));
$('agent-main').addEventListener('click', () => showAgent('main'));
$('follow-live').addEventListener('click', () => {
  view.follow = true;
  render();
});
document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement && e.target.type !== 'range') return;
  if (e.key === 'ArrowLeft') go(view.cursor - 1);
  else if (e.key === 'ArrowRight') go(view.cursor + 1);
});
// The elapsed gauge runs while the task does.
setInterval(() => {
  if (view.follow && !model.result) render();
}, 1000);

async function loadChart() {
  try {
    let layout = exported?.chart;
    if (!layout) {
      const response = await fetch('/api/chart', { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`${response.status}`);
      layout = await response.json();
    }
    view.layout = layout;
    drawLayout();
  } catch (error) {
    $('chart').textContent = `The chart could not be loaded (${error.message}).`;
  }
  render();
}

function connect() {
  if (exported) {
    $('connection').hidden = true; // no server to connect to; the source badge says "exported file"
    for (const record of exported.records ?? []) add(record);
    render();
    return;
  }
  const source = new EventSource('/api/events');
  const status = $('connection');
  source.addEventListener('open', () => {
    status.textContent = 'connected';
    status.dataset.state = 'connected';
  });
  source.addEventListener('error', () => {
    status.textContent = source.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting';
    status.dataset.state = status.textContent;
  });
  source.addEventListener('history', (e) => {
    for (const record of JSON.parse(e.data)) add(record);
    render();
  });
  // The server gathers what happened in the last 50 ms into one event: one parse and one picture for it.
  source.addEventListener('records', (e) => {
    for (const record of JSON.parse(e.data)) add(record);
    render();
  });
}

loadChart();
connect();
