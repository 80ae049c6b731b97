import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GENERAL_PURPOSE, type AgentDefinition, type AgentProblem } from './definition.js';
import { parseAgentFile } from './parse-agent-file.js';

/** The agents a run may start, and the files that could not be read as agents. */
export interface LoadedAgents {
  agents: AgentDefinition[];
  problems: AgentProblem[];
}

/**
 * The folders agent files are read from, lowest first: the user's, then the project's Claude Code
 * folder, then the project's own. A later folder wins on the same name.
 */
export function agentFolders(workspace: string, home: string | null): string[] {
  return [
    ...(home ? [path.join(home, 'agents')] : []),
    path.join(workspace, '.claude', 'agents'),
    path.join(workspace, '.xagent', 'agents'),
  ];
}

/**
 * Reads every `*.md` of the agent folders (a missing folder is none), the built-in
 * general-purpose agent first. A malformed file is a problem, named, and the others still load.
 * @example const { agents, problems } = loadAgents({ workspace: process.cwd(), home: process.env.XAGENT_HOME ?? null });
 */
export function loadAgents({ workspace, home }: { workspace: string; home: string | null }): LoadedAgents {
  const byName = new Map<string, AgentDefinition>([[GENERAL_PURPOSE.name, GENERAL_PURPOSE]]);
  const problems: AgentProblem[] = [];
  for (const folder of agentFolders(workspace, home)) {
    for (const file of markdownFiles(folder)) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        problems.push({ file, problem: `not readable: ${error instanceof Error ? error.message : String(error)}` });
        continue;
      }
      const parsed = parseAgentFile(text, file);
      if ('problem' in parsed) problems.push({ file, problem: parsed.problem });
      else byName.set(parsed.agent.name, parsed.agent);
    }
  }
  return { agents: [...byName.values()], problems };
}

function markdownFiles(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.name.endsWith('.md') && (entry.isFile() || entry.isSymbolicLink()))
      .map((entry) => path.join(folder, entry.name))
      .sort();
  } catch {
    return [];
  }
}

/** `given` over `loaded`, by name (the library's agents win over the files'). */
export function withAgents(loaded: readonly AgentDefinition[], given: readonly AgentDefinition[]): AgentDefinition[] {
  const names = new Set(given.map((a) => a.name));
  return [...loaded.filter((a) => !names.has(a.name)), ...given];
}
