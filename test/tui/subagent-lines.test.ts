import { describe, expect, it } from 'vitest';
import { stateTags } from '../../machines/query-engine.js';
import type { AgentEvent } from '../../src/engine/events.js';
import { subagentLines, subagentStatus, subagentText, type SubagentLine } from '../../src/tui/subagent-lines.js';

const taskCall = (id: string, type: string, description: string) => ({
  id,
  name: 'task',
  input: { description, prompt: 'go', subagent_type: type },
});
const taskStart = (id: string, type: string, description: string) =>
  ({ type: 'tool_start', agent: 'main', call: taskCall(id, type, description) }) as AgentEvent;
const taskResult = (id: string, isError = false) =>
  ({ type: 'tool_result', agent: 'main', call: taskCall(id, 'x', 'x'), result: { content: 'answer', is_error: isError } }) as AgentEvent;
const toolStart = (agent: string, path: string) =>
  ({ type: 'tool_start', agent, call: { id: `r-${path}`, name: 'read_file', input: { path } } }) as AgentEvent;
const usage = (agent: string, input: number, output: number) =>
  ({
    type: 'usage',
    agent,
    usage: { input_tokens: 0, output_tokens: 0 },
    total: { input_tokens: input, output_tokens: output },
  }) as AgentEvent;
const state = (agent: string, name: string) =>
  ({ type: 'state', name, tags: stateTags(name), agent, via: { event: 'always' }, turn: 0, tool_call_count: 0, usage: {} }) as AgentEvent;

describe('one terminal line per subagent, as Claude Code shows them', () => {
  it('opens a line per task call in the model order, counts each child’s tool uses and tokens (a grandchild’s calls too), and closes it with Done', () => {
    let lines: SubagentLine[] = [];
    const step = (event: AgentEvent, now: number) => {
      lines = subagentLines(lines, event, now);
    };
    step(taskStart('t1', 'scout', 'Read the source'), 1_000);
    step(taskStart('t2', 'general-purpose', 'Check the tests'), 1_000);
    step(toolStart('main/task-2', 'b.txt'), 1_100);
    step(toolStart('main/task-1', 'a.txt'), 1_200);
    step(toolStart('main/task-1/task-1', 'deep.txt'), 1_300);
    step(usage('main/task-1', 3_000, 1_800), 1_400);
    step(state('main/task-1', 'done'), 1_500);
    step(taskResult('t1'), 4_000);
    expect(lines.map((l) => [l.agent, l.title])).toEqual([
      ['main/task-1', 'scout(Read the source)'],
      ['main/task-2', 'general-purpose(Check the tests)'],
    ]);
    expect(subagentStatus(lines[0]!, 9_999)).toBe('Done (2 tool uses · 4.8k tokens · 3.0s)');
    expect(subagentText(lines[1]!, 2_500)).toBe('general-purpose(Check the tests) · 1 tool use · 0 tokens · 1.5s · read_file b.txt');
  });

  it("ignores the main agent's other calls and events of agents it has no line for", () => {
    expect(subagentLines([], toolStart('main', 'a.txt'), 0)).toEqual([]);
    expect(subagentLines([], toolStart('main/task-9', 'a.txt'), 0)).toEqual([]);
  });
});
