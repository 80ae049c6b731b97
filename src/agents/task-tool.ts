import type { Tool } from '../tools/types.js';
import type { AgentDefinition } from './definition.js';
import { TASK_INPUT_SCHEMA, TASK_TOOL } from './task-input.js';

/**
 * The `task` tool as the model and the rules see it: its name, its description (the agents it may
 * start) and its input schema. Its calls never run here: the chart runs each as a child chart of its
 * actor system (`execute_tool.subagent`, or a batch's child), so `execute` only answers a call that
 * reached it some other way. It only reads on its own (what the subagent does is checked call by
 * call), so the rules allow it like a read and it runs in a batch with the other task calls of a response.
 * @example createTaskTool({ agents })
 */
export function createTaskTool({ agents }: { agents: readonly AgentDefinition[] }): Tool {
  const list = agents.map((a) => `- ${a.name}: ${a.description}${a.tools ? ` (tools: ${a.tools.join(', ')})` : ''}`).join('\n');
  return {
    name: TASK_TOOL,
    description: [
      'Starts a subagent for a task that takes several steps (a wide search, a question about many files) and returns its final answer.',
      'The subagent sees only your prompt, not this conversation: say everything it needs. Several task calls in one response run at the same time.',
      `Available agent types (subagent_type):\n${list}`,
    ].join('\n'),
    inputSchema: TASK_INPUT_SCHEMA as unknown as Record<string, unknown>,
    readOnly: true,
    execute: async () => ({
      content: 'A task call runs as a child of the engine, not as a tool; this run cannot start subagents.',
      isError: true,
    }),
  };
}
