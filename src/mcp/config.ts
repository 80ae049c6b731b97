import { SettingsError } from '../settings/settings.js';
import { expandEnv } from './expand-env.js';

/**
 * The `mcpServers` of `.mcp.json` and the settings files, checked and merged:
 *
 * ```json
 * { "mcpServers": { "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "env": { "TOKEN": "${TOKEN}" } },
 *                   "web": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ${WEB_TOKEN}" } } } }
 * ```
 *
 * No SDK here: this module is read on every run that has a config, the client only when a server starts.
 */

/** One source's `mcpServers` value, as written (src/permissions/settings.ts reads the files). */
export interface McpServersLayer {
  /** The file it came from. */
  source: string;
  value: unknown;
}

interface Common {
  name: string;
  /** The file that defined it (the one that won, when several did). */
  source: string;
  /** The command line or URL as written, `${VAR}` unexpanded: what screens and errors show. */
  display: string;
  /** Values that must never reach a record: env and header values, and everything taken from the environment. */
  secrets: string[];
  /** Why it cannot start (an unset `${VAR}`), or undefined. */
  problem?: string;
}

export interface StdioServerConfig extends Common {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface HttpServerConfig extends Common {
  /** `http`: Streamable HTTP; `sse`: the older HTTP+SSE transport (the SDK's SSE client). */
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** Server names make tool names `mcp__<name>__<tool>`, which must fit the API's `^[a-zA-Z0-9_-]{1,64}$`. */
const NAME = /^[A-Za-z0-9_-]{1,56}$/;
const STDIO_KEYS = ['type', 'command', 'args', 'env'];
const HTTP_KEYS = ['type', 'url', 'headers'];

/**
 * A server name as tool names carry it: as Claude Code does, each character the API does not
 * allow becomes `_` (`Bright Data` gives `mcp__Bright_Data__<tool>`); `__` is squeezed to one, since
 * it separates server and tool.
 * @example toolServerName('Bright Data') // 'Bright_Data'
 */
export function toolServerName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').replace(/_{2,}/g, '_');
}

/** Secrets shorter than this are not searched for: "1" or "true" would blank out ordinary words. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Merges the layers (highest precedence first: settings.local.json, settings.json, .mcp.json, the
 * user's settings; a name defined twice is taken whole from the first) and expands `${VAR}`.
 * @example resolveMcpServers(settings.mcpServers, process.env) // [{ name: 'fs', transport: 'stdio', command: 'npx', ... }]
 * @throws SettingsError naming the file and the problem
 */
export function resolveMcpServers(
  layers: readonly McpServersLayer[],
  env: NodeJS.ProcessEnv,
  warn: (warning: string) => void = () => undefined,
): McpServerConfig[] {
  const servers = new Map<string, McpServerConfig>();
  for (const { source, value } of layers) {
    if (!isObject(value))
      throw new SettingsError(source, '"mcpServers" must be an object of server name to {"command", ...} or {"type": "http", "url", ...}');
    for (const [written, entry] of Object.entries(value)) {
      const name = toolServerName(written);
      // Neither a command nor a URL (`{"link": "..."}`): nothing to start, and Claude Code does not refuse the file for it.
      if (isObject(entry) && entry.type === undefined && entry.command === undefined && entry.url === undefined) {
        warn(
          `${source}: mcpServers.${written}: skipped: it has neither "command" nor "url" (keys: ${Object.keys(entry).join(', ') || 'none'})`,
        );
        continue;
      }
      const server = parseServer(written, entry, source, env, (problem) => warn(`${source}: mcpServers.${written}: ${problem}`));
      if (!servers.has(name)) servers.set(name, server);
    }
  }
  return [...servers.values()];
}

function parseServer(
  written: string,
  entry: unknown,
  source: string,
  env: NodeJS.ProcessEnv,
  warn: (problem: string) => void,
): McpServerConfig {
  const where = `mcpServers.${written}`;
  const fail = (problem: string): never => {
    throw new SettingsError(source, `${where}: ${problem}`);
  };
  const name = toolServerName(written);
  if (!NAME.test(name)) fail('a server name is 1 to 56 characters (tools are named mcp__<server>__<tool>)');
  if (name !== written) warn(`its tools are named mcp__${name}__<tool>`);
  if (!isObject(entry)) return fail('must be an object: {"command", "args"?, "env"?} or {"type": "http", "url", "headers"?}');
  const type = entry.type ?? (entry.url !== undefined ? 'http' : 'stdio');
  if (type !== 'stdio' && type !== 'http' && type !== 'sse') {
    return fail(`"type" ${JSON.stringify(type)} is not supported (use "stdio" with "command", or "http" or "sse" with "url")`);
  }
  const allowed = type === 'stdio' ? STDIO_KEYS : HTTP_KEYS;
  const extra = Object.keys(entry).filter((key) => !allowed.includes(key));
  // Claude Code ignores what it does not know (cwd, alwaysAllow, ...): so does xagent, saying so.
  if (extra.length > 0) warn(`ignored: ${extra.map((key) => `"${key}"`).join(', ')} (a ${type} server takes ${allowed.join(', ')})`);
  const secrets: string[] = [];
  const missing: string[] = [];
  const expand = (text: string, secret: boolean): string => {
    const result = expandEnv(text, env);
    secrets.push(...result.substituted);
    missing.push(...result.missing);
    // A value still holding an unset ${VAR} is not a secret: it is what the message names.
    if (secret && result.missing.length === 0) secrets.push(result.text);
    return result.text;
  };
  const problemOf = () => {
    if (missing.length === 0) return undefined;
    const names = [...new Set(missing)];
    return `environment variable${names.length > 1 ? 's' : ''} ${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} not set`;
  };
  if (type === 'http' || type === 'sse') {
    if (typeof entry.url !== 'string' || entry.url.trim() === '') return fail('"url" must be a non-empty string');
    const headers = stringMap(entry.headers, 'headers', fail);
    const url = expand(entry.url, false);
    const expandedHeaders = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key, expand(value, true)]));
    if (missing.length === 0 && !/^https?:\/\//i.test(url))
      fail(`"url" must be an http:// or https:// URL, got ${JSON.stringify(entry.url)}`);
    return withProblem(
      { name, source, transport: type, url, headers: expandedHeaders, display: entry.url, secrets: keep(secrets) },
      problemOf(),
    );
  }
  if (typeof entry.command !== 'string' || entry.command.trim() === '') return fail('"command" must be a non-empty string');
  if (entry.args !== undefined && (!Array.isArray(entry.args) || !entry.args.every((arg) => typeof arg === 'string'))) {
    return fail('"args" must be a list of strings');
  }
  const args = (entry.args ?? []) as string[];
  const envMap = stringMap(entry.env, 'env', fail);
  const display = [entry.command, ...args].join(' ');
  const server: StdioServerConfig = {
    name,
    source,
    transport: 'stdio',
    command: expand(entry.command, false),
    args: args.map((arg) => expand(arg, false)),
    env: Object.fromEntries(Object.entries(envMap).map(([key, value]) => [key, expand(value, true)])),
    display,
    secrets: [],
  };
  server.secrets = keep(secrets);
  return withProblem(server, problemOf());
}

function withProblem<T extends McpServerConfig>(server: T, problem: string | undefined): T {
  return problem === undefined ? server : { ...server, problem };
}

function stringMap(value: unknown, key: string, fail: (problem: string) => never): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    return fail(`"${key}" must be an object of names to string values`);
  }
  return value as Record<string, string>;
}

/** Distinct secrets worth searching for, longest first (so a secret containing another is removed whole). */
function keep(secrets: readonly string[]): string[] {
  return [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Removes every secret value from a text bound for the model, the records or the screen.
 * @example redactSecrets('token=abcdefgh1', ['abcdefgh1']) // 'token=[redacted]'
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}
