import { loadAgents } from '../agents/load-agents.js';
import { registerCommand } from './commands.js';

/**
 * `/agents`: the subagents the task tool can start in this session (name, source, tools, model),
 * and the agent files that are not agents, read again now so a fixed file shows as fixed.
 */
export function registerAgentsCommand(): void {
  registerCommand({
    name: 'agents',
    description: 'list the subagents the task tool can start, and agent files with problems',
    whileRunning: true,
    run: ({ controller, print }) => {
      const { agents, workspace, home } = controller.config;
      const lines = [`Agents (${agents.length}); the model starts one with the task tool:`];
      for (const a of agents) {
        lines.push(`  ${a.name}  ${a.source}  tools: ${a.tools ? a.tools.join(', ') : 'all'}  model: ${a.model ?? 'inherit'}`);
      }
      const { problems } = loadAgents({ workspace, home });
      if (problems.length > 0) lines.push('Not agents (skipped):', ...problems.map((p) => `  ${p.file}: ${p.problem}`));
      print(lines.join('\n'));
    },
  });
}
