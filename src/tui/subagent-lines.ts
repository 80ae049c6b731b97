import { hasTag, TAG } from '../../machines/state-tags.js';
import type { AgentEvent } from '../engine/events.js';
import { describeActivity } from '../terminal/tool-activity.js';

/** One running subagent as the terminal UI shows it: its path, the state it is in, its last tool. */
export interface SubagentLine {
  agent: string;
  state: string;
  lastTool: string | null;
}

/**
 * The running subagents after `event` (one of theirs): a child appears with its first state,
 * follows its states and tool starts, and is gone once it is `done`. Pure: the list is replaced.
 * @example subagentLines([], { type: 'state', name: 'call_model.requesting', agent: 'main/task-1', ... })
 */
export function subagentLines(lines: readonly SubagentLine[], event: AgentEvent): SubagentLine[] {
  const agent = 'agent' in event ? event.agent : undefined;
  if (!agent || agent === 'main') return [...lines];
  if (event.type === 'state' && hasTag(event, TAG.final)) return lines.filter((l) => l.agent !== agent);
  const index = lines.findIndex((l) => l.agent === agent);
  const line = lines[index] ?? { agent, state: 'starting', lastTool: null };
  let updated: SubagentLine;
  if (event.type === 'state') updated = { ...line, state: event.name };
  else if (event.type === 'tool_start') updated = { ...line, lastTool: describeActivity(event.call) };
  else return [...lines];
  return index >= 0 ? lines.map((l, i) => (i === index ? updated : l)) : [...lines, updated];
}

/** The line's text: `main/task-1 · call_model.requesting · last: Read a.txt`. */
export function subagentText(line: SubagentLine): string {
  return `${line.agent} · ${line.state}${line.lastTool ? ` · last: ${line.lastTool}` : ''}`;
}
