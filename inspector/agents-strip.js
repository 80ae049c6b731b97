// The live agents of the run, one chip each: the main agent and every subagent that has not ended,
// with the state it is in and what it waits for (read from the state's tags); the one waiting for
// the person is highlighted, the one shown is marked. A click shows that agent's chart.

import { hasTag } from './tags.js';

const WAITS = [
  ['person', 'waiting for you'],
  ['model', 'the model'],
  ['compaction', 'a summary'],
  ['hooks', 'hooks'],
  ['tool', 'tools'],
];

/** What a state waits for, in words, from its tags; `''` for a routing state. @example waitsFor({ kind: 'state', tags: ['model'] }) // 'the model' */
export function waitsFor(state) {
  for (const [tag, words] of WAITS) if (hasTag(state, tag)) return words;
  return '';
}

/**
 * The agents alive at the end of `records`, in the order they started: `{agent, state, waits, waiting}`.
 * A subagent leaves the strip once its last state is final; the main agent always stays.
 */
export function liveAgents(records, agentOf) {
  const last = new Map([['main', null]]);
  for (const r of records) if (r.kind === 'state') last.set(agentOf(r), r);
  return [...last]
    .filter(([agent, state]) => agent === 'main' || !hasTag(state, 'final'))
    .map(([agent, state]) => ({ agent, state: state?.name ?? '–', waits: state ? waitsFor(state) : '', waiting: hasTag(state, 'person') }));
}

/** Draws the chips into `container`. */
export function renderAgentsStrip(container, agents, shown, show) {
  container.replaceChildren(
    ...agents.map(({ agent, state, waits, waiting }) => {
      const chip = document.createElement('button');
      chip.type = 'button';
      chip.className = `agent-chip${waiting ? ' waiting' : ''}${agent === shown ? ' shown' : ''}`;
      chip.setAttribute('data-testid', 'agent-chip');
      chip.dataset.agent = agent;
      chip.dataset.state = state;
      chip.dataset.waiting = String(waiting);
      chip.title = waits ? `${agent}: ${state}, waiting for ${waits}` : `${agent}: ${state}`;
      chip.textContent = `${agent} · ${waits || state}`;
      chip.addEventListener('click', () => show(agent));
      return chip;
    }),
  );
}
