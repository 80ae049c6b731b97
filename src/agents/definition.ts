/**
 * A subagent as Claude Code defines one: a Markdown file whose YAML frontmatter names it and whose
 * body is its system prompt. xagent reads the same files (`.xagent/agents/`, `.claude/agents/`,
 * `$XAGENT_HOME/agents/`) and has one built in.
 */
export interface AgentDefinition {
  /** What the model passes as `subagent_type`. */
  name: string;
  /** When to use it: the model reads this in the task tool's description. */
  description: string;
  /** The system prompt. */
  prompt: string;
  /** The tools it may use (xagent's names); null: every tool of the run (the task tool aside past the depth limit). */
  tools: readonly string[] | null;
  /** A model id or alias (`sonnet`, `haiku`); null or `inherit`: the parent's model. */
  model: string | null;
  /** `plan` keeps the agent to reading; other modes are the parent's (a child never has looser rules). */
  permissionMode: string | null;
  /** The file it came from, or `built-in`. */
  source: string;
}

/** A file that could not be read as an agent: which, and why. The other agents still load. */
export interface AgentProblem {
  file: string;
  problem: string;
}

export const BUILT_IN_SOURCE = 'built-in';

/** Claude Code's general-purpose agent: every tool, for searches and multi-step tasks. */
export const GENERAL_PURPOSE: AgentDefinition = {
  name: 'general-purpose',
  description:
    'General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks. Use it when a search may take several rounds.',
  prompt: [
    'You are an agent for xagent, started by another agent to do one task. Do what the task asks, nothing more, using the tools you have.',
    'Your final message is all the other agent sees: make it a complete, concise answer, with the file paths and facts it needs.',
  ].join('\n'),
  tools: null,
  model: null,
  permissionMode: null,
  source: BUILT_IN_SOURCE,
};
