// Swim lanes on the timing strip: one lane per agent of the task shown (main first, then each
// subagent in the order it started), on one time axis, each holding that agent's own time by kind.
// So three subagents running at once show as a tool call in the main lane and as their own model
// and tool time in their lanes, side by side. Read from the state records alone, live or replayed.

import { formatMs } from './panels.js';
import { hasTag } from './tags.js';
import { timeKind } from './timing.js';

const at = (r) => Date.parse(r.ts);
const agentOf = (r) => r.agent ?? 'main';

/**
 * The subagents' names, by path: the n-th task call of agent `a` started `a/task-n`, and its
 * `subagent_type` is the name the lane shows (`scout`).
 */
function agentNames(records) {
  const names = new Map([['main', 'main']]);
  const seen = new Set();
  const started = new Map();
  for (const r of records) {
    if (r.kind !== 'tool_start' || r.call?.name !== 'task' || seen.has(r.call.id)) continue;
    seen.add(r.call.id);
    const parent = agentOf(r);
    const n = (started.get(parent) ?? 0) + 1;
    started.set(parent, n);
    const type = r.call.input?.subagent_type;
    if (typeof type === 'string') names.set(`${parent}/task-${n}`, type);
  }
  return names;
}

/**
 * The lanes of `records` (one task's, every agent's), `until` being when the last state of each
 * agent still running ends (now, live). Each lane: `{agent, name, segments}`, a segment
 * `{kind, startMs, ms}` from the task's start, consecutive states of one kind merged.
 * @example agentLanes(records, Date.now())[1] // { agent: 'main/task-1', name: 'scout', segments: [{ kind: 'model', startMs: 12, ms: 800 }, ...] }
 */
export function agentLanes(records, until) {
  const byAgent = new Map([['main', []]]);
  for (const r of records) {
    if (r.kind !== 'state') continue;
    const agent = agentOf(r);
    if (!byAgent.has(agent)) byAgent.set(agent, []);
    byAgent.get(agent).push(r);
  }
  const first = records.find((r) => r.kind === 'state');
  const origin = first ? at(first) : 0;
  const names = agentNames(records);
  const lanes = [...byAgent].map(([agent, states]) => {
    const segments = [];
    states.forEach((s, k) => {
      if (hasTag(s, 'final')) return;
      const next = states[k + 1];
      const start = at(s);
      const ms = Math.max(0, (next ? at(next) : Math.max(start, until ?? start)) - start);
      const kind = timeKind(s);
      const last = segments.at(-1);
      if (last && last.kind === kind) last.ms = start + ms - origin - last.startMs;
      else segments.push({ kind, startMs: start - origin, ms });
    });
    return { agent, name: names.get(agent) ?? agent, segments };
  });
  return { lanes, spanMs: Math.max(1, ...lanes.flatMap((l) => l.segments.map((s) => s.startMs + s.ms))) };
}

const KIND_LABEL = { model: 'model', hooks: 'hooks', tool: 'tool', person: 'waiting for you', engine: 'engine' };

/** Draws the lanes into `container`, widths and offsets proportional to time; none for a run of one agent. */
export function renderLanes(container, { lanes, spanMs }) {
  container.hidden = lanes.length < 2;
  if (container.hidden) return container.replaceChildren();
  container.replaceChildren(
    ...lanes.map(({ agent, name, segments }) => {
      const lane = document.createElement('div');
      lane.className = 'lane';
      lane.setAttribute('data-testid', 'timing-lane');
      lane.dataset.agent = agent;
      const label = document.createElement('span');
      label.className = 'lane-label';
      label.textContent = name === agent ? agent : `${name} · ${agent}`;
      label.title = agent;
      const track = document.createElement('div');
      track.className = 'lane-track';
      for (const { kind, startMs, ms } of segments) {
        const seg = document.createElement('span');
        seg.className = `seg ${kind}`;
        seg.setAttribute('data-testid', 'lane-seg');
        seg.dataset.kind = kind;
        seg.dataset.ms = String(Math.round(ms));
        seg.dataset.startMs = String(Math.round(startMs));
        seg.style.left = `${(100 * startMs) / spanMs}%`;
        seg.style.width = `${(100 * ms) / spanMs}%`;
        seg.title = `${agent}: ${KIND_LABEL[kind]} ${formatMs(ms)}`;
        track.append(seg);
      }
      lane.append(label, track);
      return lane;
    }),
  );
}
