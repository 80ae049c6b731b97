// Where each model round of the shown task spent its time, read from the state records alone: a
// state lasts from its record's ts to the next state's (the state the run is in now, up to now), so
// a live page and an exported file add up the same way.

import { formatMs } from './panels.js';
import { hasTag } from './tags.js';

const at = (r) => Date.parse(r.ts);

/** The kinds of time a round is split into, in the strip's order. */
export const TIME_KINDS = ['model', 'hooks', 'tool', 'person', 'engine'];
const KIND_LABEL = { model: 'model', hooks: 'hooks', tool: 'tool', person: 'waiting for you', engine: 'engine' };

/**
 * What a state's time counts as: the model (a request, or the summary a compaction asks for), hook
 * runs, the tool, the person's answer to a permission dialog, or the engine itself (routing,
 * validation, bookkeeping), by the state's tags. A subagent's time is its task call's: tool.
 * @example timeKind({ kind: 'state', tags: ['person'] }) // 'person'
 */
export function timeKind(state) {
  if (hasTag(state, 'model') || hasTag(state, 'compaction')) return 'model';
  if (hasTag(state, 'hooks')) return 'hooks';
  if (hasTag(state, 'tool')) return 'tool';
  if (hasTag(state, 'person')) return 'person';
  return 'engine';
}

const newRound = (n, start) => ({
  n,
  start,
  end: start,
  ms: { model: 0, hooks: 0, tool: 0, person: 0, engine: 0 },
  tools: [],
  ttftMs: null,
  requested: false,
});

/**
 * Rounds from the records of one task, `until` being when the last state shown ends (now, for the
 * state a live run is in). A round runs from one model request's limit check to the next; the
 * first one starts with the task. Text that arrives while a request waits gives the time to the
 * first token (live only: a replayed text record carries the next state's time).
 */
export function roundTimings(records, until) {
  const states = records.filter((r) => r.kind === 'state');
  const rounds = [];
  let round = null;
  states.forEach((s, k) => {
    const start = at(s);
    // A round ends where the next one heads for a request: the limit check, or (after tool results,
    // which check the limits on their way out) the request itself. A compaction on the way is still that round.
    const headsForRequest = hasTag(s, 'limits') || hasTag(s, 'model');
    if (!round || (headsForRequest && round.requested)) {
      round = newRound(rounds.length + 1, start);
      rounds.push(round);
    }
    if (hasTag(s, 'model')) round.requested = true;
    if (hasTag(s, 'final')) return;
    const next = states[k + 1];
    const end = next ? at(next) : Math.max(start, until ?? start);
    const ms = Math.max(0, end - start);
    const kind = timeKind(s);
    round.ms[kind] += ms;
    round.end = Math.max(round.end, end);
    if (kind === 'tool') round.tools.push({ name: s.call?.name ?? 'tool', ms });
    if (hasTag(s, 'model') && round.ttftMs === null) {
      const text = records.find((r) => r.kind === 'text' && r.i > s.i && (!next || r.i < next.i));
      const ttft = text ? at(text) - start : null;
      if (ttft !== null && ttft < ms) round.ttftMs = ttft;
    }
  });
  for (const r of rounds) r.totalMs = Math.max(0, r.end - r.start);
  return rounds;
}

function segment(kind, ms, total, title) {
  const seg = document.createElement('span');
  seg.className = `seg ${kind}`;
  seg.setAttribute('data-testid', 'timing-seg');
  seg.dataset.kind = kind;
  seg.dataset.ms = String(Math.round(ms));
  seg.style.flexGrow = String(Math.max(ms, total / 200));
  seg.title = title;
  return seg;
}

/** The round's line: its total, then each kind of time it spent (tools by name). */
function headText(r) {
  const parts = [`model ${formatMs(r.ms.model)}${r.ttftMs !== null ? ` (first token ${formatMs(r.ttftMs)})` : ''}`];
  if (r.ms.hooks > 0) parts.push(`hooks ${formatMs(r.ms.hooks)}`);
  for (const t of r.tools) parts.push(`${t.name} ${formatMs(t.ms)}`);
  if (r.ms.person > 0) parts.push(`waiting for you ${formatMs(r.ms.person)}`);
  parts.push(`engine ${formatMs(r.ms.engine)}`);
  return `round ${r.n} · ${formatMs(r.totalMs)}: ${parts.join(' · ')}`;
}

/** One strip per round, widths proportional to time. */
export function renderTiming(container, rounds) {
  container.replaceChildren(
    ...rounds.map((r) => {
      const div = document.createElement('div');
      div.className = 'round';
      div.setAttribute('data-testid', 'timing-round');
      const head = document.createElement('div');
      head.className = 'round-head';
      head.textContent = headText(r);
      const strip = document.createElement('div');
      strip.className = 'strip';
      const total = Math.max(1, r.totalMs);
      for (const kind of TIME_KINDS) {
        const ms = r.ms[kind];
        if (kind === 'model' && r.ttftMs !== null) {
          strip.append(
            segment('ttft', r.ttftMs, total, `time to first token ${formatMs(r.ttftMs)}`),
            segment('model', ms - r.ttftMs, total, `model, streaming ${formatMs(ms - r.ttftMs)}`),
          );
        } else if (ms > 0 || kind === 'model' || kind === 'engine') {
          strip.append(segment(kind, ms, total, `${KIND_LABEL[kind]} ${formatMs(ms)}`));
        }
      }
      div.append(head, strip);
      return div;
    }),
  );
}
