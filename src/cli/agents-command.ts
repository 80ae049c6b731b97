import type { Command } from 'commander';
import { loadAgents } from '../agents/load-agents.js';
import { visible } from '../terminal/visible.js';
import { type CommandStreams, subcommandSetup } from './subcommand-setup.js';

/**
 * Adds `xagent agents [--cwd dir] [--json]`: the agents the task tool may start (name, source
 * file, tools, model), then the files that are not agents and why. Exit 0 (a malformed file
 * blocks nothing), 2 when the workspace or the settings cannot be read.
 * @example registerAgentsCommand(program, setExit, { stdout: process.stdout, stderr: process.stderr });
 */
export function registerAgentsCommand(
  program: Command,
  setExit: (code: number) => void,
  streams: CommandStreams,
  env: NodeJS.ProcessEnv = process.env,
): void {
  program
    .command('agents')
    .description('list the subagents the task tool can start (.xagent/agents, .claude/agents, $XAGENT_HOME/agents)')
    .option('--cwd <dir>', 'workspace (default: current dir)')
    .option('--json', 'one JSON object on stdout')
    // With globals: the main command's own --cwd would otherwise take the value.
    .action((_options: unknown, command: Command) =>
      setExit(listAgents(command.optsWithGlobals<{ cwd?: string; json?: boolean }>(), streams, env)),
    );
}

function listAgents(options: { cwd?: string; json?: boolean }, streams: CommandStreams, env: NodeJS.ProcessEnv): number {
  const setup = subcommandSetup(options, streams.stderr, env, ({ workspace, home }) => loadAgents({ workspace, home }));
  if ('exitCode' in setup) return setup.exitCode;
  const { agents, problems } = setup;
  const rows = agents.map(({ name, description, source, tools, model, permissionMode }) => ({
    name,
    description,
    source,
    tools,
    model,
    ...(permissionMode ? { permissionMode } : {}),
  }));
  if (options.json) {
    streams.stdout.write(`${JSON.stringify({ agents: rows, problems })}\n`);
    return 0;
  }
  const lines = [`${agents.length} agent${agents.length === 1 ? '' : 's'}:`];
  for (const a of rows) {
    lines.push(`  ${a.name}  (${a.source})`);
    lines.push(
      `    tools: ${a.tools ? a.tools.join(', ') : 'all'}   model: ${a.model ?? 'inherit'}${a.permissionMode ? `   permissionMode: ${a.permissionMode}` : ''}`,
    );
  }
  if (problems.length > 0) {
    lines.push(`${problems.length} file${problems.length === 1 ? ' is' : 's are'} not an agent (skipped):`);
    for (const p of problems) lines.push(`  ${p.file}: ${p.problem}`);
  }
  streams.stdout.write(`${visible(lines.join('\n'))}\n`);
  return 0;
}
