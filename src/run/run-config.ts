import type { AgentDefinition } from '../agents/definition.js';
import { GENERAL_PURPOSE } from '../agents/definition.js';
import { loadAgents, withAgents } from '../agents/load-agents.js';
import path from 'node:path';
import type { ModelClient } from '../model/types.js';
import { agentModels } from './agent-models.js';
import { createScriptedClient, loadModelScript } from '../model/scripted.js';
import { loadSettings, userSettingsPath } from '../settings/settings.js';
import type { PermissionRule } from '../permissions/index.js';
import { defaultClaudeHome } from '../settings/settings.js';
import { importsLeftOut } from '../context/imports-left-out.js';
import { gateAgents, gateSettings } from '../trust/gate.js';
import { trustedKeys } from '../trust/trust-store.js';
import { trustSavedRules, type UntrustedProject } from './trust-gate.js';
import { xagentHome } from '../sessions/layout.js';
import { createPermissionPolicy, denialsToModel, type SessionPermissionPolicy } from '../permissions/index.js';
import type { PermissionPrompt } from '../permissions/types.js';
import type { PermissionMode } from '../permissions/types.js';
import { ToolRegistry } from '../tools/registry.js';
import { builtinTools } from '../tools/builtin/index.js';
import { sandboxForRun, type Sandbox, type SandboxSettings } from '../sandbox/index.js';
import { FLAG_NAMES, uniqueToolNames, type RunSpec } from './run-spec.js';
import { UsageError } from '../errors/xagent-error.js';
import { resolveWorkspace } from './workspace-dir.js';
import { DEFAULT_LIMITS, type TaskLimits } from '../engine/limits.js';
import { resolveLimits } from './settings-limits.js';
import { parseModelPrices, type PriceSettings } from '../model/cost.js';
import { parseContextOptions } from './context-options.js';
import { parseDuration } from './parse-options.js';
import type { McpServerConfig } from '../mcp/config.js';
import { resolveMcpLayers } from './mcp-layers.js';
import type { ResolvedHook } from '../hooks/index.js';
import { commandEnv } from './command-env.js';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const DEFAULT_MODEL = 'claude-sonnet-5-5';

/**
 * Everything a run needs, resolved once from the flags, the environment and the settings files:
 * a bad value is a UsageError (exit 2) before any request. Nothing below the CLI sees raw flags.
 */
export interface RunConfig {
  workspace: string;
  home: string;
  model: ModelClient;
  /** The client for a model an agent file names (`haiku`, an id; `inherit` is `model`); absent for a scripted model, whose children use it too. */
  modelFor?: (name: string) => ModelClient;
  modelId: string;
  /** What the model is called on screens: the model id, or the script a scripted run replays. */
  modelLabel: string;
  tools: ToolRegistry;
  limits: TaskLimits;
  format: OutputFormat;
  permissionMode: PermissionMode;
  rules: PermissionRule[];
  /** Extended thinking budget; 0 = off. */
  maxThinkingTokens: number;
  /** The window compaction keeps the conversation under. */
  contextWindow: number;
  /** The inspector's port (0 picks a free one), or null without --inspect. */
  inspectPort: number | null;
  /** Which recorded session to continue, if any. */
  session: { resume?: string; continue: boolean; fork?: { at: number | null }; newId?: string };
  /** The prompt given as arguments ('' when none). */
  prompt: string;
  /** Set when commands run in the OS sandbox: bash uses it; hooks and stdio MCP servers should (see src/sandbox/README.md). */
  sandbox?: Sandbox;
  sandboxSettings: SandboxSettings;
  /** Replaces the built system prompt (the library's `systemPrompt`); undefined builds it as usual. */
  systemPrompt?: string;
  /** Added at the end of the system prompt (--append-system-prompt). */
  appendSystemPrompt?: string;
  /** MCP servers from .mcp.json and the settings files (src/mcp/); prepareRun starts them. */
  mcpServers?: McpServerConfig[];
  mcpTimeouts?: McpTimeouts;
  /** The hooks of every settings file. */
  hooks: ResolvedHook[];
  /** The settings' `env` (trusted files only): set over the inherited environment for bash, hooks and stdio MCP servers. */
  env: Readonly<Record<string, string>>;
  /** Project-file items left out until the person trusts them (src/trust/); settleTrust asks or refuses. */
  untrusted?: UntrustedProject;
  /** The project is trusted: its instruction files may `@import` from the person's folders (~/.claude, $XAGENT_HOME). */
  outsideImports: boolean;
  /** The settings' `modelPrices`, highest precedence first per model: the cost uses them before the built-in table. */
  modelPrices: PriceSettings;
  /** What the settings files hold that xagent keeps without effect or skips (one line each, naming the file). */
  warnings: string[];
  /** The agents the task tool may start: the built-in one, the agent files', the library's (src/agents/). */
  agents: AgentDefinition[];
  /** --permission-prompt-tool: the MCP tool that answers permission questions in -p (print-mode.ts builds its prompt). */
  permissionPromptTool?: string;
}

/** The `modelPrices` of every settings file; a model's price comes from the highest file that sets it. */
function resolveModelPrices(layers: ReadonlyArray<{ source: string; value: unknown }>, warnings: string[]): PriceSettings {
  const prices: Record<string, PriceSettings[string]> = {};
  for (const { source, value } of layers) {
    const parsed = parseModelPrices(value, source);
    warnings.push(...parsed.problems.map((problem) => `${source}: ${problem}`));
    for (const [model, entry] of Object.entries(parsed.prices)) prices[model] ??= entry;
  }
  return prices;
}

/** How long an MCP server may take to start (MCP_TIMEOUT) and to answer one call (MCP_TOOL_TIMEOUT), in ms. */
export interface McpTimeouts {
  startupMs: number;
  toolMs: number;
}

/**
 * MCP_TIMEOUT (default 30 s) and MCP_TOOL_TIMEOUT (default 120 s): 30000 (ms), 30s or 2m.
 * @example resolveMcpTimeouts({ MCP_TIMEOUT: '10s' }) // { startupMs: 10000, toolMs: 120000 }
 * @throws UsageError for a value that is not a duration
 */
export function resolveMcpTimeouts(env: NodeJS.ProcessEnv): McpTimeouts {
  return {
    startupMs: env.MCP_TIMEOUT ? parseDuration(env.MCP_TIMEOUT, 'MCP_TIMEOUT') : 30_000,
    toolMs: env.MCP_TOOL_TIMEOUT ? parseDuration(env.MCP_TOOL_TIMEOUT, 'MCP_TOOL_TIMEOUT') : 120_000,
  };
}

export type ModelFactory = (options: { modelId: string; env: NodeJS.ProcessEnv; maxThinkingTokens?: number }) => ModelClient;

/**
 * The one place a run's configuration is put together, for the CLI and the library alike:
 * a bad value is a UsageError before any request.
 * @example const config = buildRunConfig({ limits: DEFAULT_LIMITS, format: 'text', inspectPort: null, session: { continue: false }, prompt: 'hi' }, process.env, createApiModel);
 */
export function buildRunConfig(spec: RunSpec, env: NodeJS.ProcessEnv, createApiModel: ModelFactory): RunConfig {
  const names = spec.names ?? FLAG_NAMES;
  const workspace = resolveWorkspace(spec.cwd, names.cwd);
  if (spec.model !== undefined && spec.model.trim() === '')
    throw new UsageError(`${names.model} is empty: give a model id, e.g. ${names.model === '--model' ? '--model ' : ''}claude-sonnet-4-5`);
  const modelId = spec.model ?? env.ANTHROPIC_MODEL ?? DEFAULT_MODEL;
  const home = path.resolve(xagentHome(env));
  const { maxThinkingTokens, contextWindow } = parseContextOptions(spec, env, modelId, names);
  const extraTools = spec.extraTools ?? [];
  const toolNames = uniqueToolNames(extraTools);
  let settings;
  let mcpServers: McpServerConfig[];
  let untrusted: UntrustedProject | undefined;
  const mcpWarnings: string[] = [];
  settings = loadSettings({
    workspace,
    home,
    allow: spec.allow ?? [],
    deny: spec.deny ?? [],
    knownTools: toolNames,
    readFiles: spec.readSettings !== false,
    claudeHome: defaultClaudeHome(env),
  });
  const given = spec.mcpServers === undefined ? [] : [{ source: 'the mcpServers option', value: spec.mcpServers }];
  const warn = (warning: string) => mcpWarnings.push(warning);
  // The user's own files (xagent's and Claude Code's) are never project files, even in a workspace that is the home folder.
  const where = { workspace, userSettingsFile: [userSettingsPath(home), path.join(defaultClaudeHome(env), 'settings.json')] };
  // The environment as it is now, read whole once: for the servers' `${VAR}` and the subagents' model
  // clients (the CLI withholds the API key from process.env once the run is set up). Each whole read
  // of process.env goes through Node's interceptor per variable: ~30-130 µs, twice a task before.
  // envAsNow also shares one copy between the tasks set up while the environment stays the same.
  const envNow = envAsNow(env);
  // The settings' env is in the servers' environment, so a `${VAR}` in .mcp.json sees it too (as in Claude Code).
  let settingsEnv = commandEnv(settings.env, env, warn);
  mcpServers = resolveMcpLayers([...given, ...settings.mcpServers], { ...envNow, ...settingsEnv }, where, warn);
  const loaded = spec.readSettings === false ? { agents: [GENERAL_PURPOSE], problems: [] } : loadAgents({ workspace, home });
  let agents = withAgents(loaded.agents, spec.agents ?? []);
  // The trust gate filters what the loader returned by source; the full lists wait in `untrusted`.
  if (spec.trustProject === false) {
    const trusted = trustedKeys(home, workspace);
    const gated = gateSettings(settings, { ...where, trusted });
    const gatedAgents = gateAgents(agents, { workspace, home, trusted });
    if (gated.pending.length > 0 || gatedAgents.pending.length > 0) {
      untrusted = {
        items: [...gated.pending, ...gatedAgents.pending],
        withThem: {
          rules: settings.rules,
          hooks: [...(spec.hooks ?? []), ...settings.hooks],
          mcpServers,
          permissionMode: spec.permissionMode ?? settings.mode ?? 'default',
          outsideImports: true,
          agents,
          env: settingsEnv,
        },
      };
      settings = { ...settings, rules: gated.rules, hooks: gated.hooks, mode: gated.mode };
      settingsEnv = commandEnv(gated.env, env);
      mcpServers = resolveMcpLayers([...given, ...gated.mcpServers], { ...envNow, ...settingsEnv }, where);
      agents = gatedAgents.kept;
    }
  }
  // A project's instruction imports reach outside it only once the person has trusted the workspace.
  const outsideImports = spec.trustProject !== false || trustedKeys(home, workspace).size > 0;
  const importWarnings = outsideImports ? [] : importsLeftOut({ workspace, home, claudeHome: defaultClaudeHome(env) });
  const sandboxed = sandboxForRun({ flag: spec.sandbox, layers: settings.sandbox, workspace, xagentHome: home, env });
  let model: ModelClient;
  if (spec.modelScript) {
    model = createScriptedClient(loadModelScript(path.resolve(spec.modelScript)));
  } else {
    model = createApiModel({ modelId, env, maxThinkingTokens });
  }
  return {
    workspace,
    home,
    permissionMode: spec.permissionMode ?? settings.mode ?? 'default',
    rules: settings.rules,
    model,
    // The environment as it is now: the CLI withholds the API key from the process env once the run is set up.
    ...(spec.modelScript ? {} : { modelFor: agentModels(model, (id) => createApiModel({ modelId: id, env: envNow, maxThinkingTokens })) }),
    modelId,
    modelLabel: spec.modelScript ? `scripted (${spec.modelScript})` : modelId,
    tools: new ToolRegistry([...builtinTools(sandboxed.sandbox ? { sandbox: sandboxed.sandbox } : {}), ...extraTools]),
    limits: resolveLimits(spec.limits, settings.limits, spec.defaultLimits ?? DEFAULT_LIMITS),
    format: spec.format,
    maxThinkingTokens,
    contextWindow,
    inspectPort: spec.inspectPort,
    session: spec.session,
    prompt: spec.prompt,
    ...(sandboxed.sandbox ? { sandbox: sandboxed.sandbox } : {}),
    sandboxSettings: sandboxed.settings,
    ...(spec.systemPrompt !== undefined ? { systemPrompt: spec.systemPrompt } : {}),
    ...(spec.appendSystemPrompt ? { appendSystemPrompt: spec.appendSystemPrompt } : {}),
    mcpServers,
    mcpTimeouts: resolveMcpTimeouts(env),
    hooks: [...(spec.hooks ?? []), ...settings.hooks],
    env: settingsEnv,
    ...(untrusted ? { untrusted } : {}),
    outsideImports,
    modelPrices: resolveModelPrices(settings.modelPrices, mcpWarnings),
    warnings: [
      ...settings.warnings,
      ...mcpWarnings,
      ...importWarnings,
      ...loaded.problems.map((p) => `agent file ${p.file}: ${p.problem}; skipped`),
    ],
    agents,
    ...(spec.permissionPromptTool ? { permissionPromptTool: spec.permissionPromptTool } : {}),
  };
}

/**
 * The permission policy of a run: its rules and mode, and a prompt only where a person can answer.
 * `denialsToModel` (`-p` without --stop-on-denial): a denial by a rule, or an ask with nobody to
 * ask, goes back to the model as an is_error result and the task goes on.
 */
export function policyFor(
  config: RunConfig,
  prompt?: PermissionPrompt,
  options: { denialsToModel?: boolean } = {},
): SessionPermissionPolicy {
  const policy = basePolicy(config, prompt);
  return options.denialsToModel ? denialsToModel(policy, { personAsks: prompt !== undefined }) : policy;
}

function basePolicy(config: RunConfig, prompt?: PermissionPrompt): SessionPermissionPolicy {
  // A rule the person saved with "always" is theirs: the trust gate must not ask about it next run.
  const remembering: PermissionPrompt | undefined =
    prompt &&
    (async (request) => {
      const outcome = await prompt(request);
      if (outcome.savedRules.length > 0) trustSavedRules(config, outcome.savedRules);
      return outcome;
    });
  return createPermissionPolicy({
    mode: config.permissionMode,
    rules: config.rules,
    workspace: config.workspace,
    prompt: remembering,
    sandbox: config.sandbox !== undefined,
  });
}

let lastEnv: NodeJS.ProcessEnv = {};

/**
 * A copy of the environment as it is now (a subagent's model reads it later, after the CLI has
 * withheld the API key). Tasks set up while it stays the same share one copy: each copy of
 * process.env is ~3 kB of new strings, kept for the task's life, 30 MB at 10,000 tasks at once.
 */
function envAsNow(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  const keys = Object.keys(copy);
  if (keys.length === Object.keys(lastEnv).length && keys.every((key) => lastEnv[key] === copy[key])) return lastEnv;
  lastEnv = copy;
  return copy;
}
