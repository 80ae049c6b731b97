import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../machines/types.js';
import type { CommandSandbox } from '../tools/types.js';
import { redactSecrets, type McpServerConfig } from './config.js';
import { toToolResult } from './results.js';
import { ProcessTransport } from './stdio-transport.js';

/** A tool as the server listed it. */
export interface ServerTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}

export interface ConnectionOptions {
  /** Workspace root: where stdio servers run. */
  cwd: string;
  clientVersion: string;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  sandbox?: CommandSandbox;
  /** The settings' `env`, given to a stdio server below its own. */
  env?: Readonly<Record<string, string>>;
}

export type ConnectionState = 'starting' | 'connected' | 'failed' | 'stopped';

/** At most this many pages of `tools/list`: a server handing out cursors forever must not hang start-up. */
const MAX_TOOL_PAGES = 100;

/**
 * One MCP server: started once, its tools listed, calls made with a timeout; never restarted
 * within a run. Every failure becomes a message naming the server (secrets removed); nothing throws
 * out of `call`.
 * @example const c = new McpConnection(config, options); await c.start(); await c.call('echo', { message: 'hi' }, signal);
 */
export class McpConnection {
  state: ConnectionState = 'starting';
  /** Why it failed or stopped, once it did. */
  problem: string | undefined;
  tools: ServerTool[] = [];
  private client: Client | undefined;
  private transport: Transport | undefined;
  private closing = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly options: ConnectionOptions,
  ) {}

  /** Connects and lists the tools within the start-up timeout; resolves either way (see `state`). */
  async start(): Promise<void> {
    if (this.config.problem) return this.fail(this.config.problem);
    const client = new Client({ name: 'xagent', version: this.options.clientVersion }, { capabilities: {} });
    const transport = this.makeTransport();
    this.client = client;
    this.transport = transport;
    // Errors also reach the pending request (or `problem`); the SDK would print them otherwise.
    client.onerror = () => undefined;
    client.onclose = () => {
      if (this.closing || this.state === 'failed') return;
      this.state = 'stopped';
      this.problem = this.clean(this.exitProblem() ?? 'the connection closed');
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`it did not answer within ${this.options.startupTimeoutMs} ms (MCP_TIMEOUT)`)),
        this.options.startupTimeoutMs,
      );
    });
    try {
      await Promise.race([this.connectAndList(client, transport), timeout]);
      if (this.state === 'starting') this.state = 'connected';
    } catch (error) {
      await this.fail(this.exitProblem() ?? describe(error));
    } finally {
      clearTimeout(timer);
    }
  }

  private async connectAndList(client: Client, transport: Transport): Promise<void> {
    const timeout = this.options.startupTimeoutMs;
    await client.connect(transport, { timeout });
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const listed = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
      this.tools.push(...(listed.tools as ServerTool[]));
      cursor = listed.nextCursor;
      if (!cursor) return;
    }
  }

  private makeTransport(): Transport {
    const config = this.config;
    if (config.transport === 'http') {
      return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
    }
    // The older HTTP+SSE transport (`"type": "sse"`); the SDK sends requestInit's headers on the stream and on each POST.
    if (config.transport === 'sse') return new SSEClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
    if (config.transport !== 'stdio') throw new Error(`unknown transport ${String((config as { transport: unknown }).transport)}`);
    return new ProcessTransport({
      command: config.command,
      args: config.args,
      // The settings' env first, then the server's own entry: the more specific one wins.
      env: { ...this.options.env, ...config.env },
      cwd: this.options.cwd,
      sandbox: this.options.sandbox,
    });
  }

  private exitProblem(): string | undefined {
    return this.transport instanceof ProcessTransport ? this.transport.problem() : undefined;
  }

  private async fail(problem: string): Promise<void> {
    this.state = 'failed';
    this.problem = this.clean(problem);
    this.tools = [];
    await this.close();
  }

  /**
   * Calls one tool; always resolves with a result the model can act on.
   * @example await connection.call('get-sum', { a: 1, b: 2 }, signal) // { content: 'The sum of 1 and 2 is 3.', isError: false }
   */
  async call(tool: string, input: unknown, signal: AbortSignal): Promise<ToolResult> {
    const server = `MCP server "${this.config.name}"`;
    if (this.state !== 'connected' || !this.client) {
      const why = this.problem ? `: ${this.problem}` : '';
      return this.error(`${server} is not running${why}. It is not restarted within this run, so its tools cannot be used now.`);
    }
    const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    try {
      const result = await this.client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: this.options.toolTimeoutMs,
      });
      const converted = toToolResult(result);
      return { ...converted, content: this.clean(converted.content) };
    } catch (error) {
      return this.error(this.describeCallError(server, tool, error, signal));
    }
  }

  private describeCallError(server: string, serverTool: string, error: unknown, signal: AbortSignal): string {
    const tool = `mcp__${this.config.name}__${serverTool}`;
    if (signal.aborted) return `The call to ${tool} on ${server} was aborted.`;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return `${server} did not answer ${tool} within ${this.options.toolTimeoutMs} ms (MCP_TOOL_TIMEOUT); the call was cancelled.`;
    }
    if (this.state === 'stopped' || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
      const why = this.problem ?? this.exitProblem() ?? 'the connection closed';
      return `${server} stopped during the call to ${tool}: ${why}. It is not restarted within this run.`;
    }
    return `${server} failed to run ${tool}: ${describe(error)}`;
  }

  private error(message: string): ToolResult {
    return { content: this.clean(message), isError: true };
  }

  /** Takes the config's secret values out of anything bound for the model, the records or the screen. */
  clean(text: string): string {
    return redactSecrets(text, this.config.secrets);
  }

  /** Stops the server (a stdio server's whole process tree); safe to call twice. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.state === 'connected' || this.state === 'starting') this.state = 'stopped';
    try {
      await (this.client ? this.client.close() : this.transport?.close());
    } catch {
      // closing a broken connection may fail; the process group is still stopped by the transport
    }
    if (this.transport instanceof ProcessTransport) await this.transport.close();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error && cause.message && !error.message.includes(cause.message) ? ` (${cause.message})` : '';
    return `${error.message}${detail}`;
  }
  return String(error);
}
