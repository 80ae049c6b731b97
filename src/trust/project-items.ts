import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ResolvedHook } from '../hooks/types.js';
import type { PermissionRule } from '../permissions/rules.js';
import type { PermissionMode } from '../permissions/types.js';

/**
 * What a project's own files (under the workspace: `.mcp.json`, `.xagent/settings*.json`,
 * `.claude/settings*.json`, ...) would make xagent run or allow: the things a cloned repository
 * must not get on its first run without the person saying yes.
 */
export interface TrustItem {
  kind: 'mcp_server' | 'hook' | 'allow_rule' | 'permission_mode' | 'agent' | 'env';
  /** The file, relative to the workspace. */
  file: string;
  /** One line for the person: the server's command line, the hook's command, the rule. */
  text: string;
  /** Stable over runs while the item is the same: what the trust store remembers. */
  key: string;
}

export interface SettingsForTrust {
  rules: readonly PermissionRule[];
  hooks: readonly ResolvedHook[];
  mcpServers: ReadonlyArray<{ source: string; value: unknown }>;
  mode?: PermissionMode;
  modeSource?: string;
  /** Each file's `env` variables (settings' `env`), highest precedence first. */
  env?: ReadonlyArray<{ source: string; vars: Readonly<Record<string, string>> }>;
}

/**
 * True when `source` is a project file: a path inside the workspace that is not one of the user's
 * own settings files (xagent's and Claude Code's live inside it when the workspace is the home folder).
 */
export function isProjectSource(source: string, workspace: string, userSettingsFiles: string | readonly string[]): boolean {
  if (!path.isAbsolute(source)) return false; // --allow, query(), the mcpServers option: the person's own
  const file = path.resolve(source);
  const users = typeof userSettingsFiles === 'string' ? [userSettingsFiles] : userSettingsFiles;
  if (users.some((user) => file === path.resolve(user))) return false;
  const relative = path.relative(path.resolve(workspace), file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/**
 * The items of the project's files, in a stable order. Deny and ask rules are not items: they
 * only ever take away, and always apply.
 * @example projectItems(settings, '/ws', '/home/me/.xagent/settings.json') // [{ kind: 'mcp_server', file: '.mcp.json', text: 'fs: npx ...', key }]
 */
export function projectItems(settings: SettingsForTrust, workspace: string, userSettingsFile: string | readonly string[]): TrustItem[] {
  const isProject = (source: string) => isProjectSource(source, workspace, userSettingsFile);
  const items: TrustItem[] = [];
  for (const layer of settings.mcpServers) {
    if (!isProject(layer.source) || !isObject(layer.value)) continue;
    for (const [name, entry] of Object.entries(layer.value)) items.push(serverItem(layer.source, name, entry, workspace));
  }
  for (const hook of settings.hooks) if (isProject(hook.source) && hook.hook.type === 'command') items.push(hookItem(hook, workspace));
  for (const rule of settings.rules) if (rule.behavior === 'allow' && isProject(rule.source)) items.push(ruleItem(rule, workspace));
  if (settings.mode === 'acceptEdits' && settings.modeSource && isProject(settings.modeSource)) {
    items.push(modeItem(settings.mode, settings.modeSource, workspace));
  }
  for (const layer of settings.env ?? []) {
    if (!isProject(layer.source)) continue;
    for (const [name, value] of Object.entries(layer.vars)) items.push(envItem(layer.source, name, value, workspace));
  }
  return items;
}

const rel = (source: string, workspace: string) => path.relative(path.resolve(workspace), path.resolve(source)).split(path.sep).join('/');

export function serverItem(source: string, name: string, entry: unknown, workspace: string): TrustItem {
  return item('mcp_server', rel(source, workspace), `MCP server ${name}: ${describeServer(entry)}`, { name, entry });
}

export function hookItem(hook: ResolvedHook, workspace: string): TrustItem {
  const command = hook.hook.type === 'command' ? hook.hook.command : 'function';
  const matcher = hook.matcher ? ` (${hook.matcher.source})` : '';
  return item('hook', rel(hook.source, workspace), `hook ${hook.event}${matcher}: ${command}`, { event: hook.event, matcher, command });
}

/** Also the key of an allow rule an "always" answer saves: what the next run's projectItems gives it. */
export function ruleItem(rule: PermissionRule, workspace: string): TrustItem {
  return item('allow_rule', rel(rule.source, workspace), `allow rule ${rule.text}`, rule.text);
}

export function modeItem(mode: PermissionMode, source: string, workspace: string): TrustItem {
  return item('permission_mode', rel(source, workspace), `permission mode ${mode}`, mode);
}

/**
 * Variables that decide which program runs or what it loads before its own code: from a project
 * file they change what every command, hook and server does, so the question says so.
 */
const RUNS_CODE =
  /^(PATH|LD_\w+|DYLD_\w+|NODE_OPTIONS|NODE_PATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|PYTHON(PATH|STARTUP|HOME)|PERL5(OPT|LIB)|RUBY(OPT|LIB)|JAVA_TOOL_OPTIONS|GIT_(SSH_COMMAND|EXEC_PATH|CONFIG\w*|ASKPASS|EDITOR|PAGER)|EDITOR|VISUAL|PAGER|SHELL)$/;

/**
 * A project file's `env` variable: given to bash, hooks and MCP servers only once trusted. The
 * question names the variable, not its value (a local file may hold a token); the key covers the
 * value, so a changed value asks again.
 * @example envItem('/ws/.claude/settings.json', 'PATH', './bin:/usr/bin', '/ws').text // 'env PATH (changes which programs run)'
 */
export function envItem(source: string, name: string, value: string, workspace: string): TrustItem {
  const note = RUNS_CODE.test(name) ? ' (changes which programs run)' : '';
  return item('env', rel(source, workspace), `env ${name}${note}`, { name, value });
}

/**
 * A project's agent file (`.claude/agents/*.md`, `.xagent/agents/*.md`): its prompt, tools and
 * model take effect only once trusted; the key covers all three, so a changed file asks again.
 */
export function agentItem(
  agent: { name: string; source: string; prompt: string; tools: readonly string[] | null; model: string | null },
  workspace: string,
): TrustItem {
  const tools = agent.tools ? agent.tools.join(', ') : 'every tool';
  return item('agent', rel(agent.source, workspace), `agent ${agent.name} (${tools}; model ${agent.model ?? 'inherit'})`, {
    name: agent.name,
    prompt: agent.prompt,
    tools: agent.tools,
    model: agent.model,
  });
}

function item(kind: TrustItem['kind'], file: string, text: string, value: unknown): TrustItem {
  const key = createHash('sha256')
    .update(JSON.stringify([kind, file, value]))
    .digest('hex')
    .slice(0, 32);
  return { kind, file, text, key };
}

function describeServer(entry: unknown): string {
  if (!isObject(entry)) return JSON.stringify(entry);
  if (typeof entry.url === 'string') return entry.url;
  const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
  return [String(entry.command), ...args].join(' ');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
