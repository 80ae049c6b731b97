// The side panels for one step: gauges, stop reason, tool calls, event log. Text goes in with
// textContent only; the records may hold anything a model or a tool produced.

export const KINDS = [
  'meta',
  'state',
  'text',
  'thinking',
  'tool_start',
  'tool_result',
  'usage',
  'retry',
  'turn_end',
  'compact',
  'hook',
  'result',
  'notice',
  'prompt',
  'agent_prompt',
  'rewind',
  'fork',
];

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const short = (text, n = 100) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
const json = (value) => JSON.stringify(value, null, 2);

export function formatMs(ms) {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`;
}

function setGauge(id, value, max, text) {
  const gauge = document.getElementById(id);
  gauge.querySelector('.value').textContent = text;
  const fill = gauge.querySelector('.fill');
  if (!fill) return;
  const ratio = max ? Math.min(1, value / max) : 0;
  fill.style.width = `${(ratio * 100).toFixed(1)}%`;
  gauge.classList.toggle('full', max ? value >= max : false);
  gauge.dataset.value = String(value);
  if (max) gauge.dataset.max = String(max);
}

export function renderGauges({ state, limits, elapsedMs }) {
  const turn = state?.turn ?? 0;
  const tools = state?.tool_call_count ?? 0;
  setGauge('gauge-turn', turn, limits.maxTurns, limits.maxTurns ? `${turn} / ${limits.maxTurns}` : String(turn));
  setGauge('gauge-tools', tools, limits.maxToolCalls, limits.maxToolCalls ? `${tools} / ${limits.maxToolCalls}` : String(tools));
  setGauge(
    'gauge-elapsed',
    elapsedMs ?? 0,
    limits.timeoutMs,
    limits.timeoutMs ? `${formatMs(elapsedMs)} / ${formatMs(limits.timeoutMs)}` : formatMs(elapsedMs),
  );
  const usage = state?.usage ?? { input_tokens: 0, output_tokens: 0 };
  const cached = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  const cache = cached || written ? ` · cache ${cached} read / ${written} written` : '';
  setGauge('gauge-tokens', usage.input_tokens + usage.output_tokens, 0, `${usage.input_tokens} / ${usage.output_tokens}${cache}`);
  const cost = document.getElementById('gauge-cost');
  if (cost) cost.querySelector('.value').textContent = costText;
}

let costText = '–';
/** The task's cost from its result record: dollars, or why there is no figure. */
export function renderCost(result) {
  if (!result) costText = '–';
  else if (result.total_cost_usd === null) costText = 'unknown price';
  else if (typeof result.total_cost_usd === 'number') costText = `$${result.total_cost_usd.toFixed(4)}`;
  const cost = document.getElementById('gauge-cost');
  if (cost) cost.querySelector('.value').textContent = costText;
}

export function renderStop(result) {
  const box = document.getElementById('stop');
  box.hidden = !result;
  if (!result) return;
  box.classList.toggle('error', result.is_error);
  document.getElementById('stop-reason').textContent = result.reason;
  document.getElementById('stop-message').textContent = result.stop_message;
}

// A call's progress, learned from what the records carry (a decision, a start, a result, an
// error), never from state names: the furthest stage reached wins, an error or a result is final.
const STAGE = { checking: 0, deciding: 1, running: 2, ok: 3, error: 3 };

/** The tool calls seen up to the step, keyed by call id, with what happened to each. */
export function collectCalls(records) {
  const calls = new Map();
  const entry = (call) => {
    if (!calls.has(call.id)) calls.set(call.id, { call, status: 'checking' });
    return calls.get(call.id);
  };
  const advance = (e, status) => {
    if (STAGE[status] > STAGE[e.status]) e.status = status;
  };
  for (const r of records) {
    if (r.kind === 'state' && r.call) {
      const e = entry(r.call);
      if (r.decision) e.decision = r.decision;
      if (r.error) Object.assign(e, { status: 'error', error: r.error });
      else if (r.decision) advance(e, 'deciding');
    } else if (r.kind === 'tool_start') {
      advance(entry(r.call), 'running');
    } else if (r.kind === 'tool_result') {
      Object.assign(entry(r.call), { status: r.result.is_error ? 'error' : 'ok', result: r.result });
    }
  }
  return [...calls.values()];
}

/** One card per call, kept across frames: only what changed is touched, so an open card stays open. */
const cards = new Map();

function setPart(card, name, node) {
  const old = card.parts.get(name);
  if (old?.dataset.text === node?.dataset.text) return;
  if (old && node) old.replaceWith(node);
  else if (old) old.remove();
  else if (node) card.li.append(node);
  if (node) card.parts.set(name, node);
  else card.parts.delete(name);
}

function textNode(tag, attrs, text) {
  const node = h(tag, attrs, text);
  node.dataset.text = text;
  return node;
}

/**
 * The tool cards of one agent's records. A `task` card gets a button that opens the chart of the
 * subagent it started: the n-th task call of agent `a` started `a/task-n`.
 */
export function renderTools(records, { agent = 'main', openAgent = null } = {}) {
  const list = document.getElementById('tools');
  const calls = collectCalls(records);
  let tasks = 0;
  document.getElementById('tool-count').textContent = calls.length ? `(${calls.length})` : '';
  const shown = new Set();
  for (const { call, status, decision, error, result } of calls) {
    shown.add(call.id);
    let card = cards.get(call.id);
    if (!card) {
      const badge = h('span', { class: 'badge status' });
      const sandboxed = h(
        'span',
        { class: 'badge sandboxed', 'data-testid': 'tool-sandboxed', title: 'ran inside the OS sandbox (bubblewrap)', hidden: true },
        'sandboxed',
      );
      const li = h(
        'li',
        { 'data-testid': 'tool-call', 'data-call-id': call.id, 'data-tool-name': call.name },
        h('div', { class: 'tool-head' }, h('strong', {}, call.name), badge, sandboxed, h('code', { class: 'dim' }, call.id)),
        h('pre', { class: 'input', 'data-testid': 'tool-input' }, json(call.input)),
      );
      card = { li, badge, sandboxed, parts: new Map() };
      cards.set(call.id, card);
      list.append(li);
      if (call.name === 'task' && openAgent) {
        const child = `${agent}/task-${tasks + 1}`;
        const open = h(
          'button',
          { type: 'button', class: 'small', 'data-testid': 'open-agent', 'data-agent': child },
          `open chart of ${child}`,
        );
        open.addEventListener('click', () => openAgent(child));
        li.querySelector('.tool-head').append(open);
      }
    }
    if (call.name === 'task') tasks++;
    card.li.hidden = false;
    card.li.className = `tool ${status}`;
    card.li.dataset.status = status;
    card.badge.textContent = status;
    // Known from the decision before the call runs, and from the result once it has.
    card.sandboxed.hidden = !(result?.sandboxed || decision?.decidedBy?.startsWith('sandbox:'));
    setPart(
      card,
      'decision',
      decision
        ? textNode(
            'div',
            { class: `decision ${decision.behavior}`, 'data-testid': 'tool-decision' },
            `${decision.behavior} — decided by ${decision.decidedBy}${decision.message ? `: ${decision.message}` : ''}`,
          )
        : null,
    );
    setPart(
      card,
      'error',
      error ? textNode('div', { class: 'error-text', 'data-testid': 'tool-error' }, `${error.code}: ${error.message}`) : null,
    );
    setPart(
      card,
      'result',
      result
        ? textNode('pre', { class: `result${result.is_error ? ' error-text' : ''}`, 'data-testid': 'tool-result' }, result.content)
        : null,
    );
  }
  // Calls of later steps (when stepping back) or of another task stay in the DOM, hidden.
  for (const [id, card] of cards) if (!shown.has(id)) card.li.hidden = true;
}

function summary(r) {
  switch (r.kind) {
    case 'meta':
      return `${r.mode} session ${r.session_id}${r.model ? ` · ${r.model}` : ''}`;
    case 'state':
      return `${r.name} · turn ${r.turn} · tools ${r.tool_call_count}${r.via ? ` ← ${r.via.event || 'always'}` : ''}${r.call ? ` · ${r.call.name}` : ''}${r.error ? ` · ${r.error.code}` : ''}${r.reason ? ` · ${r.reason}` : ''}`;
    case 'text':
    case 'thinking':
      return short(r.text.replace(/\s+/g, ' '));
    case 'tool_start':
      return `${r.call.name}(${short(JSON.stringify(r.call.input ?? {}), 80)})`;
    case 'tool_result':
      return `${r.result.is_error ? '✗ ' : ''}${r.call.name}: ${short(r.result.content.split('\n')[0] ?? '', 80)}`;
    case 'usage':
      return `+${r.usage.input_tokens} in, +${r.usage.output_tokens} out (total ${r.total.input_tokens} / ${r.total.output_tokens})`;
    case 'retry':
      return `attempt ${r.attempt} in ${r.delay_ms}ms: ${r.message}`;
    case 'turn_end':
      return r.reason;
    case 'compact':
      return r.tokens_after === null
        ? `compaction (${r.reason}) ${r.error ? `failed: ${r.error}` : 'found nothing to cut'}`
        : `compacted (${r.reason}): ~${r.tokens_before} → ~${r.tokens_after} tokens, ${r.removed_messages} messages summarised`;
    case 'hook':
      return `${r.hook_event} ${short(r.command, 60)}: ${r.outcome}${r.exit_code === null ? '' : ` (exit ${r.exit_code})`} · ${r.duration_ms}ms${r.message ? ` · ${short(r.message, 80)}` : ''}`;
    case 'result':
      return `${r.reason}: ${short(r.stop_message)}`;
    case 'notice':
      return r.message;
    case 'prompt':
      return `message ${r.n}: ${short(r.text.replace(/\s+/g, ' '), 80)}`;
    case 'rewind':
      return rewindText(r);
    case 'fork':
      return `forked from ${r.from_session} ${r.at === null ? '(the whole conversation)' : `before message ${r.at}`}`;
    default:
      return '';
  }
}

/** A rewind in one line: where to, which halves, what it did. */
export function rewindText(r) {
  const halves = r.code && r.conversation ? 'code and conversation' : r.code ? 'code only' : 'conversation only';
  const files = r.code ? ` · ${r.files.length} file${r.files.length === 1 ? '' : 's'} put back` : '';
  const messages = r.conversation ? ` · conversation ${r.messages_before} → ${r.messages_after} messages` : '';
  return `rewound to message ${r.to} (${halves})${files}${messages}`;
}

export function renderFilters(filters, counts, onChange) {
  const box = document.getElementById('log-filters');
  if (box.childElementCount === 0) {
    for (const kind of KINDS) {
      const input = h('input', { type: 'checkbox', 'data-testid': `filter-${kind}`, 'data-kind': kind });
      input.checked = filters.has(kind);
      input.addEventListener('change', () => onChange(kind, input.checked));
      box.append(h('label', { class: `filter kind-${kind}` }, input, ` ${kind} `, h('span', { class: 'count dim' })));
    }
  }
  for (const label of box.children) {
    const kind = label.querySelector('input').dataset.kind;
    label.querySelector('.count').textContent = String(counts.get(kind) ?? 0);
  }
}

/** The log's rows, appended as records arrive and never rebuilt: an expanded row stays open. */
const rows = [];

function logRow(r) {
  const { i, ts, kind, ...payload } = r;
  return h(
    'li',
    { class: `row kind-${kind}${r.result?.is_error || r.error ? ' error' : ''}`, 'data-testid': 'log-row', 'data-kind': kind, 'data-i': i },
    h(
      'details',
      {},
      h('summary', {}, h('span', { class: 'dim' }, `#${i} ${ts.slice(11, 23)} `), h('span', { class: 'kind' }, kind), ` ${summary(r)}`),
      h('pre', {}, json(payload)),
    ),
  );
}

/**
 * Shows the records up to `end` that pass the filters. New records become new rows; rows after
 * the step being shown are hidden, not removed. The list scrolls only to keep the step in view,
 * or to the end when it was at the end (following live), never away from what someone is reading.
 */
export function renderLog(records, end, filters, cursorIndex) {
  const list = document.getElementById('log');
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  for (let k = rows.length; k < records.length; k++) {
    const row = logRow(records[k]);
    rows.push(row);
    list.append(row);
  }
  let shown = 0;
  for (let k = 0; k < rows.length; k++) {
    const visible = k < end && filters.has(records[k].kind);
    if (rows[k].hidden === visible) rows[k].hidden = !visible;
    if (visible) shown++;
    const isCursor = records[k].i === cursorIndex;
    if (rows[k].classList.contains('cursor') !== isCursor) rows[k].classList.toggle('cursor', isCursor);
  }
  document.getElementById('log-count').textContent = `(${shown})`;
  const current = cursorIndex === undefined ? null : rows[cursorIndex];
  if (current && !current.hidden && end < records.length) {
    // Stepping back: keep the step's row in view, scrolling the list only (offsetTop is inside #log).
    const top = current.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 20) list.scrollTop = top - list.clientHeight / 2;
  } else if (atEnd) {
    list.scrollTop = list.scrollHeight;
  }
}
