/** The tool that starts a subagent, by Claude Code's name for its input fields. */
export const TASK_TOOL = 'task';

/** What the model sends to start a subagent. */
export interface TaskInput {
  /** A few words for the person watching (`Find the config loader`). */
  description: string;
  /** The whole task for the subagent: it sees nothing of this conversation but this. */
  prompt: string;
  /** The agent's name (`general-purpose`, or one from an agents folder). */
  subagent_type: string;
}

export const TASK_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    description: { type: 'string', description: 'A short (3-5 word) description of the task' },
    prompt: { type: 'string', description: 'The task for the agent to perform' },
    subagent_type: { type: 'string', description: 'The type of specialized agent to use for this task' },
  },
  required: ['description', 'prompt', 'subagent_type'],
  additionalProperties: false,
} as const;
