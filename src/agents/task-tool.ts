import type { ToolResult } from '../../machines/types.js';
import type { Tool } from '../tools/types.js';
import type { AgentDefinition } from './definition.js';
import { TASK_INPUT_SCHEMA, TASK_TOOL, type TaskInput } from './task-input.js';

/**
 * The `task` tool: starts a subagent with the prompt alone (none of this conversation) and gives
 * back its final answer. It only reads on its own (what the subagent does is checked call by call),
 * so the rules allow it like a read and it runs in a batch with the other task calls of a response.
 * @example createTaskTool({ agents, start: (agent, input, signal) => runSubagent(...) })
 */
export function createTaskTool({
  agents,
  start,
}: {
  agents: readonly AgentDefinition[];
  /** Runs the subagent; given every call, an unknown agent too, so the n-th task call of an agent is always its child `task-n`. */
  start: (agent: AgentDefinition | null, input: TaskInput, signal: AbortSignal) => Promise<ToolResult>;
}): Tool {
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
    execute: async ({ input, signal }) => {
      const task = input as TaskInput;
      return start(agents.find((a) => a.name === task.subagent_type) ?? null, task, signal);
    },
  };
}
