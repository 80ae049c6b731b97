import type { McpServer } from '@agentclientprotocol/sdk';
import { MIN_SECRET_LENGTH, toolServerName, type McpServerConfig } from '../mcp/config.js';

/** What the records say the editor's servers came from. */
const SOURCE = 'the editor (session/new)';

/**
 * The MCP servers an editor passes in `session/new` / `session/load`, in the form the run's own
 * (from `.mcp.json` and the settings) have. Their env and header values never reach a record.
 * @example editorMcpServers([{ name: 'fs', command: 'npx', args: ['srv'], env: [] }]) // [{ name: 'fs', transport: 'stdio', ... }]
 */
export function editorMcpServers(servers: readonly McpServer[]): McpServerConfig[] {
  return servers.map((server): McpServerConfig => {
    const name = toolServerName(server.name);
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      const headers = Object.fromEntries(server.headers.map((header) => [header.name, header.value]));
      return {
        name,
        source: SOURCE,
        display: server.url,
        secrets: secretsOf(Object.values(headers)),
        transport: server.type,
        url: server.url,
        headers,
      };
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    const env = Object.fromEntries(stdio.env.map((variable) => [variable.name, variable.value]));
    return {
      name,
      source: SOURCE,
      display: [stdio.command, ...stdio.args].join(' '),
      secrets: secretsOf(Object.values(env)),
      transport: 'stdio',
      command: stdio.command,
      args: [...stdio.args],
      env,
    };
  });
}

/**
 * The run's servers with the editor's added; an editor server named like one of the project's
 * takes its place (the editor's list is what the person configured for this session).
 */
export function withEditorServers(own: readonly McpServerConfig[], editor: readonly McpServerConfig[]): McpServerConfig[] {
  const names = new Set(editor.map((server) => server.name));
  return [...own.filter((server) => !names.has(server.name)), ...editor];
}

function secretsOf(values: readonly string[]): string[] {
  return values.filter((value) => value.length >= MIN_SECRET_LENGTH);
}
