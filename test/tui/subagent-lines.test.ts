import { describe, expect, it } from 'vitest';
import { stateTags } from '../../machines/query-engine.js';
import type { AgentEvent } from '../../src/engine/events.js';
import { subagentLines, subagentText, type SubagentLine } from '../../src/tui/subagent-lines.js';

const state = (agent: string, name: string) =>
  ({
    type: 'state',
    name,
    tags: stateTags(name),
    agent,
    via: { event: 'always' },
    turn: 0,
    tool_call_count: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
  }) as AgentEvent;
const toolStart = (agent: string, path: string) =>
  ({ type: 'tool_start', agent, call: { id: 'x', name: 'read_file', input: { path } } }) as AgentEvent;

describe('one terminal line per running subagent', () => {
  it("shows each child's state and last tool, in the order they started, and drops a child once it is done", () => {
    let lines: SubagentLine[] = [];
    for (const event of [
      state('main/task-1', 'call_model.requesting'),
      state('main/task-2', 'call_model.requesting'),
      toolStart('main/task-1', 'a.txt'),
      state('main/task-1', 'execute_tool'),
      state('main/task-2', 'done'),
    ])
      lines = subagentLines(lines, event);
    expect(lines.map(subagentText)).toEqual([expect.stringMatching(/^main\/task-1 · execute_tool · last: .*a\.txt/)]);
  });

  it("ignores the main agent's events", () => {
    expect(subagentLines([], state('main', 'call_model.requesting'))).toEqual([]);
  });
});
