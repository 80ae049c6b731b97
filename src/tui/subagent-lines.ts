import { hasTag, TAG } from '../../machines/state-tags.js';
import type { AgentEvent } from '../engine/events.js';
import { formatElapsed, formatTokens } from '../terminal/spinner.js';
import { describeActivity } from '../terminal/tool-activity.js';

/**
 * One subagent as the terminal UI shows it, Claude Code's way: `scout(Read the source)` with its
 * running time, tokens and last tool while it runs, `Done (3 tool uses · 4.8k tokens · 3.0s)` after.
 */
export interface SubagentLine {
  /** The child's agent path (`main/task-1`): its events carry it. */
  agent: string;
  /** The task call that started it (its result ends the line). */
  callId: string;
  /** `scout(Read the source)`. */
  title: string;
  startedAt: number;
  toolUses: number;
  tokens: number;
  lastTool: string | null;
  /** Set when the task call's result is in: how long it ran. */
  doneMs: number | null;
}

/** How many task calls an agent has started: its children are numbered in that order (`main/task-1`, `main/task-2`). */
const startedBy = (lines: readonly SubagentLine[], agent: string) =>
  lines.filter((l) => l.agent.slice(0, l.agent.lastIndexOf('/')) === agent).length;

/**
 * The subagent lines after `event`, at `now`. The main agent's task call opens a line (its child's
 * path is the next of the main agent's task numbers, as the engine numbers them); a child's (or a
 * grandchild's) tool starts and usage count on its line; the task call's result closes it. The
 * lines stay in the order the model asked for them. Pure: the list is replaced.
 * @example subagentLines([], { type: 'tool_start', agent: 'main', call: taskCall }, Date.now())
 */
export function subagentLines(lines: readonly SubagentLine[], event: AgentEvent, now: number): SubagentLine[] {
  const agent = ('agent' in event ? event.agent : undefined) ?? 'main';
  if (agent === 'main') {
    if (event.type === 'tool_start' && event.call.name === 'task') {
      const line: SubagentLine = {
        agent: `main/task-${startedBy(lines, 'main') + 1}`,
        callId: event.call.id,
        title: describeActivity(event.call),
        startedAt: now,
        toolUses: 0,
        tokens: 0,
        lastTool: null,
        doneMs: null,
      };
      return [...lines, line];
    }
    if (event.type === 'tool_result' && event.call.name === 'task')
      return lines.map((l) => (l.callId === event.call.id && l.doneMs === null ? { ...l, doneMs: now - l.startedAt } : l));
    return [...lines];
  }
  const index = lines.findIndex((l) => agent === l.agent || agent.startsWith(`${l.agent}/`));
  const line = lines[index];
  if (!line) return [...lines];
  let updated: SubagentLine = line;
  if (event.type === 'tool_start') updated = { ...line, toolUses: line.toolUses + 1, lastTool: describeActivity(event.call) };
  // A child's own running total; a grandchild's tokens roll up into its parent's result, and so into this total.
  else if (event.type === 'usage' && agent === line.agent) {
    const { input_tokens, output_tokens, cache_read_input_tokens = 0, cache_creation_input_tokens = 0 } = event.total;
    updated = { ...line, tokens: input_tokens + output_tokens + cache_read_input_tokens + cache_creation_input_tokens };
  } else if (event.type === 'state' && hasTag(event, TAG.final)) updated = { ...line, lastTool: null };
  else return [...lines];
  return lines.map((l, i) => (i === index ? updated : l));
}

/** What a line says after its title: `Done (3 tool uses · 4.8k tokens · 3.0s)`, or while it runs `2 tool uses · 1.2k tokens · 1.5s · bash npm test`. */
export function subagentStatus(line: SubagentLine, now: number): string {
  const uses = `${line.toolUses} tool ${line.toolUses === 1 ? 'use' : 'uses'}`;
  const figures = `${uses} · ${formatTokens(line.tokens)} tokens · ${formatElapsed(line.doneMs ?? now - line.startedAt)}`;
  if (line.doneMs !== null) return `Done (${figures})`;
  return line.lastTool ? `${figures} · ${line.lastTool}` : figures;
}

/** The running line as one text: `scout(Read the source) · 2 tool uses · 1.2k tokens · 1.5s · read_file a.txt`. */
export function subagentText(line: SubagentLine, now: number): string {
  return `${line.title} · ${subagentStatus(line, now)}`;
}
