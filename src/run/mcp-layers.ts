import { resolveMcpServers, type McpServerConfig, type McpServersLayer } from '../mcp/config.js';
import { isProjectSource } from '../trust/project-items.js';
import { projectEnv } from './agent-credentials.js';

/**
 * The MCP servers of all layers (highest precedence first; a name defined twice is taken whole
 * from the first), each layer's `${VAR}` expanded from `env`, except that a project file's layers
 * never see the agent's own credentials (agent-credentials.ts).
 * @example resolveMcpLayers(layers, process.env, { workspace, userSettingsFile })
 */
export function resolveMcpLayers(
  layers: readonly McpServersLayer[],
  env: NodeJS.ProcessEnv,
  where: { workspace: string; userSettingsFile: string | readonly string[] },
  warn: (warning: string) => void = () => undefined,
): McpServerConfig[] {
  const forProject = projectEnv(env);
  const servers = new Map<string, McpServerConfig>();
  for (const layer of layers) {
    const layerEnv = isProjectSource(layer.source, where.workspace, where.userSettingsFile) ? forProject : env;
    for (const server of resolveMcpServers([layer], layerEnv, warn)) if (!servers.has(server.name)) servers.set(server.name, server);
  }
  return [...servers.values()];
}
