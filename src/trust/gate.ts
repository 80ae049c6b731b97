import type { ResolvedHook } from '../hooks/types.js';
import { visible } from '../terminal/visible.js';
import type { PermissionRule } from '../permissions/rules.js';
import type { PermissionMode } from '../permissions/types.js';
import {
  agentItem,
  envItem,
  hookItem,
  isProjectSource,
  modeItem,
  projectItems,
  ruleItem,
  serverItem,
  type SettingsForTrust,
  type TrustItem,
} from './project-items.js';

/** The settings with every untrusted project item left out, and which items those were. */
export interface GatedSettings {
  rules: PermissionRule[];
  hooks: ResolvedHook[];
  mcpServers: Array<{ source: string; value: unknown }>;
  mode?: PermissionMode;
  /** Each file's `env` with a project file's untrusted variables left out (the user's files always stay). */
  env: Array<{ source: string; vars: Readonly<Record<string, string>> }>;
  /** The items left out, in the order they are listed to the person; empty when all are trusted. */
  pending: TrustItem[];
}

/**
 * Filters what the settings loader returned by source: a project file's MCP servers, command
 * hooks, allow rules, acceptEdits mode and `env` variables stay only when their key is in `trusted`. Deny and ask
 * rules, and everything from the user's own files, flags and code, always stay. Pure.
 * @example gateSettings(settings, { workspace: '/ws', userSettingsFile, trusted: new Set() }).pending.length // 3
 */
export function gateSettings(
  settings: SettingsForTrust,
  where: { workspace: string; userSettingsFile: string | readonly string[]; trusted: ReadonlySet<string> },
): GatedSettings {
  const { workspace, userSettingsFile, trusted } = where;
  const isProject = (source: string) => isProjectSource(source, workspace, userSettingsFile);
  const keep = (source: string, item: () => TrustItem) => !isProject(source) || trusted.has(item().key);
  const pending = projectItems(settings, workspace, userSettingsFile).filter((item) => !trusted.has(item.key));

  const rules = settings.rules.filter((rule) => rule.behavior !== 'allow' || keep(rule.source, () => ruleItem(rule, workspace)));
  const hooks = settings.hooks.filter((hook) => hook.hook.type !== 'command' || keep(hook.source, () => hookItem(hook, workspace)));
  const mcpServers = settings.mcpServers.flatMap((layer) => {
    if (!isProject(layer.source) || typeof layer.value !== 'object' || layer.value === null || Array.isArray(layer.value)) return [layer];
    const kept = Object.entries(layer.value).filter(([name, entry]) => trusted.has(serverItem(layer.source, name, entry, workspace).key));
    return kept.length === 0 ? [] : [{ source: layer.source, value: Object.fromEntries(kept) }];
  });
  let mode = settings.mode;
  if (
    mode === 'acceptEdits' &&
    settings.modeSource &&
    !keep(settings.modeSource, () => modeItem('acceptEdits', settings.modeSource ?? '', workspace))
  ) {
    mode = undefined;
  }
  const env = (settings.env ?? []).flatMap((layer) => {
    if (!isProject(layer.source)) return [layer];
    const kept = Object.entries(layer.vars).filter(([name, value]) => trusted.has(envItem(layer.source, name, value, workspace).key));
    return kept.length === 0 ? [] : [{ source: layer.source, vars: Object.fromEntries(kept) }];
  });
  return { rules, hooks, mcpServers, ...(mode !== undefined ? { mode } : {}), env, pending };
}

/**
 * Leaves out the agents whose file is the project's (inside the workspace, not under `home`) and
 * not trusted: their prompt, tools and model wait for trust like a hook. The built-in agent, the
 * person's own files and the library's agents always stay. Pure.
 * @example gateAgents(agents, { workspace: '/ws', home: '/home/me/.xagent', trusted: new Set() }).pending // [{ kind: 'agent', ... }]
 */
export function gateAgents<A extends Parameters<typeof agentItem>[0]>(
  agents: readonly A[],
  where: { workspace: string; home: string; trusted: ReadonlySet<string> },
): { kept: A[]; pending: TrustItem[] } {
  const kept: A[] = [];
  const pending: TrustItem[] = [];
  for (const agent of agents) {
    const item =
      isProjectSource(agent.source, where.workspace, []) && !isProjectSource(agent.source, where.home, [])
        ? agentItem(agent, where.workspace)
        : null;
    if (item && !where.trusted.has(item.key)) pending.push(item);
    else kept.push(agent);
  }
  return { kept, pending };
}

/**
 * What the person reads before answering, or in the exit-2 message: one line per item, with its file.
 * @example describeItems(pending) // '  MCP server fs: npx -y server-filesystem . (.mcp.json)\n  allow rule bash(*) (.xagent/settings.json)'
 */
export function describeItems(items: readonly TrustItem[]): string {
  // A repository's text on the person's terminal: control characters shown, never obeyed.
  return items.map((item) => `  ${visible(item.text.replace(/[\r\n]+/g, ' '))}  (${visible(item.file)})`).join('\n');
}
