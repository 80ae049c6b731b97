import type { AgentDefinition } from './definition.js';
import { xagentToolName } from './parse-agent-file.js';

/** An agent given in code (the library's `agents` option): the fields of an agent file's frontmatter, and its prompt. */
export interface AgentOption {
  description: string;
  prompt: string;
  tools?: string[];
  model?: string;
  permissionMode?: string;
}

/**
 * The library's `agents` option as definitions, by name; a wrong shape is a problem that names the agent.
 * @example agentsOption({ scout: { description: 'Finds files', prompt: 'Find it.', tools: ['Read', 'Grep'] } })
 */
export function agentsOption(value: unknown): { agents: AgentDefinition[] } | { problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'agents must be an object of name to { description, prompt, tools?, model? }' };
  const agents: AgentDefinition[] = [];
  for (const [name, raw] of Object.entries(value)) {
    const a = raw as Partial<AgentOption> | null;
    if (typeof a !== 'object' || a === null || typeof a.description !== 'string' || typeof a.prompt !== 'string')
      return { problem: `agents.${name} needs a description and a prompt (strings)` };
    if (a.tools !== undefined && (!Array.isArray(a.tools) || a.tools.some((t) => typeof t !== 'string')))
      return { problem: `agents.${name}.tools must be an array of tool names` };
    agents.push({
      name,
      description: a.description,
      prompt: a.prompt,
      tools: a.tools ? [...new Set(a.tools.map(xagentToolName))] : null,
      model: typeof a.model === 'string' && a.model !== 'inherit' ? a.model : null,
      permissionMode: typeof a.permissionMode === 'string' ? a.permissionMode : null,
      source: 'the agents option',
    });
  }
  return { agents };
}
