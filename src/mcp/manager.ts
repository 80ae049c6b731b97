import type { CommandSandbox, Tool } from '../tools/types.js';
import type { McpServerConfig } from './config.js';
import { McpConnection } from './connection.js';
import { mcpTool } from './mcp-tool.js';

export interface McpManagerOptions {
  /** Workspace root: where stdio servers run. */
  cwd: string;
  clientVersion: string;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** Stdio servers run inside it (--sandbox, unless the user's settings say "sandbox": {"mcpServers": false}). */
  sandbox?: CommandSandbox;
  /** Every stdio server gets these (the settings' `env`), below its own `env` entry. */
  env?: Readonly<Record<string, string>>;
  /** One line for the user, e.g. `xagent: MCP server "x" failed to start: ...`. */
  warn(line: string): void;
}

/** What `xagent mcp list` shows of one server. */
export interface McpServerStatus {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  /** The command line or URL as written (`${VAR}` unexpanded). */
  target: string;
  source: string;
  status: 'connected' | 'failed' | 'stopped' | 'starting';
  error?: string;
  tools: string[];
  /** Names only: the values may be secrets. */
  env?: string[];
  headers?: string[];
}

/**
 * Every configured MCP server of a run: all started at once, their tools offered as
 * `mcp__<server>__<tool>`, all stopped (whole process trees) by `close()`.
 * @example
 * const mcp = startMcpServers(config.mcpServers, { cwd, clientVersion, startupTimeoutMs: 30_000, toolTimeoutMs: 120_000, warn });
 * await mcp.ready(signal); const registry = new ToolRegistry([...builtinTools(), ...mcp.tools()]); ... await mcp.close();
 */
export function startMcpServers(configs: readonly McpServerConfig[], options: McpManagerOptions): McpManager {
  return new McpManager(configs, options);
}

export class McpManager {
  private readonly connections: McpConnection[];
  private readonly started: Promise<void>;
  private offered: Tool[] | undefined;

  constructor(
    configs: readonly McpServerConfig[],
    private readonly options: McpManagerOptions,
  ) {
    this.connections = configs.map((config) => new McpConnection(config, options));
    this.started = Promise.all(
      this.connections.map(async (connection) => {
        await connection.start();
        if (connection.state === 'failed')
          options.warn(`xagent: MCP server "${connection.config.name}" failed to start: ${connection.problem}`);
      }),
    ).then(() => undefined);
  }

  /** Resolves once every server is connected or has failed (each bounded by the start-up timeout), or on abort. */
  ready(signal?: AbortSignal): Promise<void> {
    if (!signal) return this.started;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const onAbort = () => resolve();
      signal.addEventListener('abort', onAbort, { once: true });
      void this.started.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  /** The tools of the connected servers (computed once, after `ready`); unusable ones skipped with a warning. */
  tools(): Tool[] {
    if (this.offered) return this.offered;
    const tools: Tool[] = [];
    const names = new Set<string>();
    for (const connection of this.connections) {
      if (connection.state !== 'connected') continue;
      for (const info of connection.tools) {
        const tool = mcpTool(connection, info);
        if ('skipped' in tool || names.has(tool.name)) {
          const why = 'skipped' in tool ? tool.skipped : 'the server lists it twice';
          this.options.warn(
            `xagent: warning: MCP server "${connection.config.name}": tool "${info.name}" skipped: ${connection.clean(why)}`,
          );
          continue;
        }
        names.add(tool.name);
        tools.push(tool);
      }
    }
    this.offered = tools;
    return tools;
  }

  statuses(): McpServerStatus[] {
    const offered = new Set(this.tools().map((tool) => tool.name));
    return this.connections.map(({ config, state, problem, tools }) => ({
      name: config.name,
      transport: config.transport,
      target: config.display,
      source: config.source,
      status: state,
      ...(problem !== undefined && state !== 'connected' ? { error: problem } : {}),
      tools: tools.map((t) => `mcp__${config.name}__${t.name}`).filter((name) => offered.has(name)),
      ...(config.transport === 'stdio' ? { env: Object.keys(config.env) } : { headers: Object.keys(config.headers) }),
    }));
  }

  /** Stops every server and waits until their processes are gone. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}
