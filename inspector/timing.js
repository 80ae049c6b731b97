// Where each model round of the shown task spent its time: the model (and, live, how long until
// its first token), each tool, and the engine's own share (validation, permission, bookkeeping).

import { formatMs } from './panels.js';

const at = (r) => Date.parse(r.ts);

/**
 * Rounds from the records of one task up to the step shown: a round starts when `call_model` is
 * entered and ends when the next one is (or the task stops).
 */
export function roundTimings(records) {
  const rounds = [];
  let round = null;
  let modelOpen = false;
  for (const r of records) {
    if (r.kind === 'state') {
      if (modelOpen && round) {
        round.modelMs = at(r) - round.start;
        modelOpen = false;
      }
      if (r.name === 'call_model') {
        if (round) round.end = at(r);
        round = { n: rounds.length + 1, start: at(r), end: at(r), modelMs: 0, ttftMs: null, tools: [] };
        rounds.push(round);
        modelOpen = true;
      } else if (round) round.end = at(r);
    } else if (round && r.kind === 'text' && modelOpen && round.ttftMs === null) {
      round.ttftMs = at(r) - round.start;
    } else if (round && r.kind === 'tool_result') {
      round.tools.push({ name: r.call.name, ms: r.duration_ms ?? 0 });
      round.end = Math.max(round.end, at(r));
    }
  }
  // A text record is stamped when it arrived only in a live run; in a replay it carries the next
  // state's time, which says nothing about the first token.
  for (const r of rounds) {
    r.totalMs = Math.max(0, r.end - r.start);
    if (r.ttftMs !== null && r.ttftMs >= r.modelMs) r.ttftMs = null;
    r.engineMs = Math.max(0, r.totalMs - r.modelMs - r.tools.reduce((n, t) => n + t.ms, 0));
  }
  return rounds;
}

function segment(cls, ms, total, title) {
  const seg = document.createElement('span');
  seg.className = `seg ${cls}`;
  seg.style.flexGrow = String(Math.max(ms, total / 200));
  seg.title = title;
  return seg;
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
      const tools = r.tools.map((t) => `${t.name} ${formatMs(t.ms)}`).join(', ');
      head.textContent = `round ${r.n} · ${formatMs(r.totalMs)}: model ${formatMs(r.modelMs)}${r.ttftMs !== null ? ` (first token ${formatMs(r.ttftMs)})` : ''}${tools ? ` · ${tools}` : ''} · engine ${formatMs(r.engineMs)}`;
      const strip = document.createElement('div');
      strip.className = 'strip';
      const total = Math.max(1, r.totalMs);
      if (r.ttftMs !== null) {
        strip.append(
          segment('ttft', r.ttftMs, total, `time to first token ${formatMs(r.ttftMs)}`),
          segment('model', r.modelMs - r.ttftMs, total, `model, streaming ${formatMs(r.modelMs - r.ttftMs)}`),
        );
      } else strip.append(segment('model', r.modelMs, total, `model ${formatMs(r.modelMs)}`));
      for (const t of r.tools) strip.append(segment('tool', t.ms, total, `${t.name} ${formatMs(t.ms)}`));
      strip.append(segment('engine', r.engineMs, total, `engine ${formatMs(r.engineMs)}`));
      div.append(head, strip);
      return div;
    }),
  );
}
