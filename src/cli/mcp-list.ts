import type { McpServerStatus } from '../mcp/manager.js';
import { visible } from '../terminal/visible.js';
import { sandboxForRun } from '../sandbox/index.js';
import { type CommandStreams, subcommandSetup } from './subcommand-setup.js';
import path from 'node:path';
import { userSettingsPath } from '../settings/settings.js';
import { defaultClaudeHome } from '../settings/settings.js';
import { describeItems, gateSettings } from '../trust/gate.js';
import { commandEnv } from '../run/command-env.js';
import { trustedKeys } from '../trust/trust-store.js';
import { TRUST_ENV, TRUST_FLAG } from '../run/trust-gate.js';
import { resolveMcpLayers } from '../run/mcp-layers.js';
import { resolveMcpTimeouts } from '../run/run-config.js';
import { packageVersion } from '../run/version.js';

/**
 * `xagent mcp list`: every configured server started as a run would start it (same timeouts,
 * same sandbox), its status and tools shown, then stopped. Exit 0 even when a server fails (its
 * status says why); 2 for a config that cannot be read. Env and header values are never shown.
 * @example process.exitCode = await runMcpList({ json: true }, { stdout: process.stdout, stderr: process.stderr }, process.env);
 */
export async function runMcpList(
  options: { cwd?: string; json?: boolean; trust?: boolean },
  streams: CommandStreams,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const trustAll = options.trust === true || env[TRUST_ENV] === '1';
  const setup = subcommandSetup(options, streams.stderr, env, ({ workspace, home, settings }) => {
    // Listing starts each server: a project's untrusted ones are named, not started (issue 31, M5).
    const where = { workspace, userSettingsFile: [userSettingsPath(home), path.join(defaultClaudeHome(env), 'settings.json')] };
    const gated = trustAll ? null : gateSettings(settings, { ...where, trusted: trustedKeys(home, workspace) });
    // The servers get the settings' env as in a run (trusted files only).
    const serverEnv = commandEnv(gated ? gated.env : settings.env, env);
    return {
      workspace,
      serverEnv,
      servers: resolveMcpLayers(gated ? gated.mcpServers : settings.mcpServers, { ...env, ...serverEnv }, where),
      untrusted: (gated?.pending ?? []).filter((item) => item.kind === 'mcp_server'),
      sandboxed: sandboxForRun({ flag: undefined, layers: settings.sandbox, workspace, xagentHome: home, env }),
    };
  });
  if ('exitCode' in setup) return setup.exitCode;
  const { workspace, servers, sandboxed, untrusted, serverEnv } = setup;
  if (untrusted.length > 0) {
    streams.stderr.write(
      `xagent: not started, not trusted yet (run xagent here once on a terminal to review them, or pass ${TRUST_FLAG}):\n${describeItems(untrusted)}\n`,
    );
  }
  const timeouts = resolveMcpTimeouts(env);
  const { startMcpServers } = await import('../mcp/manager.js');
  const sandbox = sandboxed.sandbox && sandboxed.settings.mcpServers ? sandboxed.sandbox : undefined;
  const manager = startMcpServers(servers, {
    cwd: workspace,
    clientVersion: packageVersion(),
    startupTimeoutMs: timeouts.startupMs,
    toolTimeoutMs: timeouts.toolMs,
    env: serverEnv,
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
