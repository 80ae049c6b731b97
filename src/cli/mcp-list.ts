import path from 'node:path';
import { resolveMcpServers } from '../mcp/config.js';
import type { McpServerStatus } from '../mcp/manager.js';
import { loadSettings, SettingsError } from '../permissions/index.js';
import { visible } from '../permissions/request-view.js';
import { sandboxForRun, SandboxUnavailableError } from '../sandbox/index.js';
import { xagentHome } from '../sessions/layout.js';
import { resolveWorkspace } from '../run/workspace-dir.js';
import { UsageError } from '../run/usage-error.js';
import { USAGE_EXIT_CODE } from './exit-codes.js';
import { resolveMcpTimeouts } from '../run/run-config.js';
import { packageVersion } from '../run/version.js';

interface Streams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * `xagent mcp list`: every configured server started as a run would start it (same timeouts,
 * same sandbox), its status and tools shown, then stopped. Exit 0 even when a server fails (its
 * status says why); 2 for a config that cannot be read. Env and header values are never shown.
 * @example process.exitCode = await runMcpList({ json: true }, { stdout: process.stdout, stderr: process.stderr }, process.env);
 */
export async function runMcpList(options: { cwd?: string; json?: boolean }, streams: Streams, env: NodeJS.ProcessEnv): Promise<number> {
  const fail = (message: string) => {
    streams.stderr.write(`xagent: ${message}\n`);
    return USAGE_EXIT_CODE;
  };
  let workspace: string;
  try {
    workspace = resolveWorkspace(options.cwd);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message);
    throw error;
  }
  const home = path.resolve(xagentHome(env));
  let servers: ReturnType<typeof resolveMcpServers>;
  let sandboxed: ReturnType<typeof sandboxForRun>;
  try {
    const settings = loadSettings({ workspace, home });
    servers = resolveMcpServers(settings.mcpServers, env);
    sandboxed = sandboxForRun({ flag: undefined, layers: settings.sandbox, workspace, xagentHome: home, env });
  } catch (error) {
    if (error instanceof SettingsError || error instanceof SandboxUnavailableError) return fail(error.message);
    throw error;
  }
  const timeouts = resolveMcpTimeouts(env);
  const { startMcpServers } = await import('../mcp/manager.js');
  const sandbox = sandboxed.sandbox && sandboxed.settings.mcpServers ? sandboxed.sandbox : undefined;
  const manager = startMcpServers(servers, {
    cwd: workspace,
    clientVersion: packageVersion(),
    startupTimeoutMs: timeouts.startupMs,
    toolTimeoutMs: timeouts.toolMs,
    ...(sandbox ? { sandbox } : {}),
    warn: (line) => streams.stderr.write(`${visible(line)}\n`),
  });
  let statuses: McpServerStatus[];
  try {
    await manager.ready();
    statuses = manager.statuses();
  } finally {
    await manager.close();
  }
  if (options.json) {
    streams.stdout.write(`${JSON.stringify({ workspace, servers: statuses })}\n`);
    return 0;
  }
  if (statuses.length === 0) {
    streams.stdout.write('No MCP servers configured (.mcp.json, or "mcpServers" in the settings files).\n');
    return 0;
  }
  for (const server of statuses) streams.stdout.write(visible(describeServer(server)));
  return 0;
}

function describeServer(server: McpServerStatus): string {
  const lines = [`${server.name} (${server.transport}: ${server.target}; from ${server.source})`];
  if (server.status === 'connected') {
    lines.push(`  connected, ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`);
    for (const tool of server.tools) lines.push(`    ${tool}`);
  } else {
    lines.push(`  ${server.status}: ${server.error ?? 'unknown reason'}`);
  }
  const names = server.env ?? server.headers ?? [];
  if (names.length > 0) lines.push(`  ${server.env ? 'env' : 'headers'} (values not shown): ${names.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
