import type { Command } from 'commander';
import type { CommandStreams } from './subcommand-setup.js';

/**
 * Adds `xagent mcp list [--cwd dir] [--json]`: starts each configured MCP server, shows its
 * transport, status and tools, and stops it again. The MCP code loads only when the command runs.
 * @example registerMcpCommand(program, setExit, { stdout: process.stdout, stderr: process.stderr });
 */
export function registerMcpCommand(program: Command, setExit: (code: number) => void, streams: CommandStreams): void {
  program
    .command('mcp')
    .description('MCP servers configured in .mcp.json and the settings files ("mcpServers")')
    .command('list')
    .description('start each MCP server, show its status and tools, stop it')
    .option('--cwd <dir>', 'workspace (default: current dir)')
    .option('--json', 'one JSON object on stdout')
    .option('--trust', "start this workspace's project servers even if not trusted yet (env XAGENT_TRUST=1)")
    .action(async (_options: unknown, command: Command) => {
      // With globals: the main command's own --cwd would otherwise take the value.
      const options = command.optsWithGlobals<{ cwd?: string; json?: boolean; trust?: boolean }>();
      const { runMcpList } = await import('./mcp-list.js');
      setExit(await runMcpList(options, streams, process.env));
    });
}
