import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ignoreLocalSettings } from './gitignore-local.js';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';
import { xagentHome } from '../sessions/layout.js';
import { BUILTIN_TOOL_NAMES, lackingTool, unknownToolProblem } from '../permissions/known-tools.js';
import type { SandboxLayer } from '../sandbox/sandbox-settings.js';
import { parseRules, RuleParseError, type PermissionRule } from '../permissions/rules.js';
import type { ResolvedHook } from '../hooks/types.js';
import type { PermissionMode } from '../permissions/types.js';
import { SettingsError } from './settings-error.js';
import { isObject, readSettingsFile } from './settings-read.js';
import { validateSettings, type SettingsFileSource } from './settings-validate.js';
import type { EnvLayer } from './settings-env.js';

export { mergeEnvLayers, type EnvLayer } from './settings-env.js';

/**
 * Permission settings: `$XAGENT_HOME/settings.json` (the user's), `<workspace>/.xagent/settings.json`
 * (the project's, in git), `<workspace>/.xagent/settings.local.json` (the person's, out of git), and
 * `--allow` / `--deny`. Claude Code's files of each scope are read just below xagent's own:
 * `.claude/settings.local.json`, `.claude/settings.json`, `~/.claude/settings.json`. All rules apply together; which one decides is a
 * matter of behaviour (deny, ask, allow), never of which file it came from.
 *
 * ```json
 * { "permissions": { "allow": ["bash(npm test*)"], "deny": ["bash(rm*)"], "ask": [] }, "permissionMode": "acceptEdits" }
 * ```
 */

export { SettingsError } from './settings-error.js';

export interface LoadedSettings {
  /** Rules from every source: flags first, then the project's, then the user's. */
  rules: PermissionRule[];
  /** permissionMode from settings.local.json, else the project's, else the user's; a `--permission-mode` flag beats all. */
  mode?: PermissionMode;
  /** Where `mode` came from. */
  modeSource?: string;
  /** The settings files that exist and were read. */
  files: string[];
  /** Each file's `sandbox` key, most specific first (see src/sandbox/sandbox-settings.ts). */
  sandbox: SandboxLayer[];
  /**
   * The `mcpServers` values as written, highest precedence first: settings.local.json, settings.json,
   * `<workspace>/.mcp.json`, the user's settings. src/mcp/config.ts checks and merges them.
   */
  mcpServers: Array<{ source: string; value: unknown }>;
  /** The `modelPrices` values as written, highest precedence first (src/model/cost.ts reads them). */
  modelPrices: Array<{ source: string; value: unknown }>;
  /** The `limits` values as written, highest precedence first (src/run/settings-limits.ts reads them). */
  limits: Array<{ source: string; value: unknown }>;
  /** The hooks of every file (all of them run; see src/hooks/). */
  hooks: ResolvedHook[];
  /** Each file's `env`, highest precedence first (`mergeEnvLayers` gives what a run's commands get). */
  env: EnvLayer[];
  /** What was kept but does nothing, or skipped, one line each naming the file: shown once at start. */
  warnings: string[];
}

export interface LoadSettingsOptions {
  workspace: string;
  /** Defaults to `$XAGENT_HOME`, else `~/.xagent`. */
  home?: string;
  allow?: readonly string[];
  deny?: readonly string[];
  /** Tool names rules may use (MCP names always may); default the built-in tools. */
  knownTools?: readonly string[];
  /** false: read no settings file, only `allow` and `deny` (the library's `readSettings: false`). */
  readFiles?: boolean;
  /** Claude Code's user folder; defaults to `$HOME/.claude`. */
  claudeHome?: string;
}

export function userSettingsPath(home: string = xagentHome()): string {
  return path.join(home, 'settings.json');
}

export function projectSettingsPath(workspace: string): string {
  return path.join(workspace, '.xagent', 'settings.json');
}

/** The person's own settings for this project, out of git; where "always" answers are saved. */
export function localSettingsPath(workspace: string): string {
  return path.join(workspace, '.xagent', 'settings.local.json');
}

/** The project's MCP servers, in the shape Claude Code users already write. */
export function mcpJsonPath(workspace: string): string {
  return path.join(workspace, '.mcp.json');
}

/** Claude Code's user folder, `~/.claude`. */
export function defaultClaudeHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.HOME || os.homedir(), '.claude');
}

/**
 * Loads every permission rule and the configured mode.
 * @example const { rules, mode } = loadSettings({ workspace: process.cwd(), allow: ['bash(npm test*)'] });
 * @throws SettingsError naming the file (or flag) and the problem
 */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const loaded = loadSettingsFiles(options);
  const known = options.knownTools ?? BUILTIN_TOOL_NAMES;
  const lacking = new Map<string, Set<string>>();
  for (const rule of loaded.rules) {
    const problem = unknownToolProblem(rule, known);
    // Claude Code itself accepts a file naming a tool it may add tomorrow: so does xagent, with a warning.
    if (problem && isClaudeCodeFile(rule.source) && /^[A-Z]/.test(rule.tool)) {
      lacking.set(rule.source, (lacking.get(rule.source) ?? new Set()).add(rule.tool));
      continue;
    }
    if (problem) throw new SettingsError(rule.source, problem);
    const tool = lackingTool(rule, known);
    if (tool) lacking.set(rule.source, (lacking.get(rule.source) ?? new Set()).add(tool));
  }
  for (const rule of loaded.rules) {
    if (rule.tool === 'Write' && rule.pattern !== undefined && rule.behavior === 'allow')
      loaded.warnings.push(
        `${rule.source}: allow rule "${rule.text}" allows nothing: as in Claude Code, file paths are checked against Edit(path) rules only (write Edit(${rule.pattern}))`,
      );
  }
  // One line per file, whatever the number of rules: they are kept (matching nothing), not refused.
  for (const [source, tools] of lacking) {
    loaded.warnings.push(`${source}: rules for ${[...tools].join(', ')} kept, but xagent has no such tool, so they match nothing`);
  }
  return loaded;
}

/** `.claude/settings.json`, `.claude/settings.local.json`, `~/.claude/settings.json`: written for Claude Code. */
function isClaudeCodeFile(source: string): boolean {
  return path.basename(path.dirname(source)) === '.claude' && /^settings(\.local)?\.json$/.test(path.basename(source));
}

/** The settings files, highest precedence first: each scope's xagent file, then Claude Code's. */
function settingsSources(workspace: string, home: string, claudeHome: string): SettingsFileSource[] {
  const userFile = path.resolve(userSettingsPath(home));
  const claudeUserFile = path.resolve(claudeHome, 'settings.json');
  const userRoot = path.dirname(path.resolve(claudeHome));
  const sources: SettingsFileSource[] = [
    { file: path.resolve(localSettingsPath(workspace)), project: true, claude: false, root: workspace },
    { file: path.resolve(workspace, '.claude', 'settings.local.json'), project: true, claude: true, root: workspace },
    { file: path.resolve(projectSettingsPath(workspace)), project: true, claude: false, root: workspace },
    { file: path.resolve(workspace, '.claude', 'settings.json'), project: true, claude: true, root: workspace },
    { file: userFile, project: false, claude: false, root: userRoot },
    { file: claudeUserFile, project: false, claude: true, root: userRoot },
  ];
  // When the workspace is the home directory a project file is the user's; read it once, as the user's.
  return sources.filter((s) => !s.project || (s.file !== userFile && s.file !== claudeUserFile));
}

function loadSettingsFiles({
  workspace,
  home = xagentHome(),
  allow = [],
  deny = [],
  readFiles = true,
  claudeHome = defaultClaudeHome(),
}: LoadSettingsOptions): LoadedSettings {
  const rules: PermissionRule[] = [...flagRules(allow, 'allow', workspace), ...flagRules(deny, 'deny', workspace)];
  const files: string[] = [];
  const sandbox: SandboxLayer[] = [];
  const mcpServers: LoadedSettings['mcpServers'] = [];
  const hooks: ResolvedHook[] = [];
  const modelPrices: LoadedSettings['modelPrices'] = [];
  const limits: LoadedSettings['limits'] = [];
  const env: EnvLayer[] = [];
  const warnings: string[] = [];
  let mode: PermissionMode | undefined;
  let modeSource: string | undefined;
  let mcpJsonRead = false;
  for (const source of readFiles ? settingsSources(path.resolve(workspace), home, claudeHome) : []) {
    // .mcp.json ranks below the project's settings files and above the user's.
    if (!source.project && !mcpJsonRead) {
      mcpJsonRead = true;
      mcpServers.push(...readMcpJson(path.resolve(mcpJsonPath(workspace)), warnings));
    }
    const data = readSettingsFile(source.file);
    if (data === undefined) continue;
    files.push(source.file);
    const settings = validateSettings(data, source);
    warnings.push(...settings.warnings.map((warning) => `${source.file}: ${warning}`));
    if (settings.mcpServers !== undefined) mcpServers.push({ source: source.file, value: settings.mcpServers });
    if (settings.modelPrices !== undefined) modelPrices.push({ source: source.file, value: settings.modelPrices });
    if (settings.limits !== undefined) limits.push({ source: source.file, value: settings.limits });
    if (settings.env !== undefined) env.push({ source: source.file, vars: settings.env });
    rules.push(...settings.rules);
    if (settings.sandbox) sandbox.push(settings.sandbox);
    hooks.push(...settings.hooks);
    if (settings.mode && !mode) {
      mode = settings.mode;
      modeSource = source.file;
    }
  }
  return { rules, mode, modeSource, files, sandbox, mcpServers, modelPrices, limits, hooks, env, warnings };
}

/** `.mcp.json`'s `mcpServers`, if the file exists; its other keys are not ours. */
function readMcpJson(file: string, warnings: string[]): LoadedSettings['mcpServers'] {
  const data = readSettingsFile(file);
  if (data === undefined) return [];
  if (!isObject(data)) throw new SettingsError(file, 'expected a JSON object such as {"mcpServers": {...}}');
  if (data.mcpServers === undefined) {
    warnings.push(`${file}: no "mcpServers" key, so no server is started (expected {"mcpServers": {"<name>": {...}}})`);
    return [];
  }
  return [{ source: file, value: data.mcpServers }];
}

function flagRules(texts: readonly string[], behavior: 'allow' | 'deny', workspace: string): PermissionRule[] {
  return texts.flatMap((text) => {
    try {
      return parseRules([text], behavior, `--${behavior}`, path.resolve(workspace));
    } catch (error) {
      if (error instanceof RuleParseError) throw new SettingsError(`--${behavior}`, error.message);
      throw error;
    }
  });
}

/**
 * Adds allow rules to `<workspace>/.xagent/settings.local.json`, keeping everything else in it, and
 * writes it atomically (temp file, then rename), so a crash never leaves half a file.
 * Rules already present are not repeated.
 * @example addAllowRule('/ws', 'bash(npm test*)') // '/ws/.xagent/settings.local.json'
 * @throws SettingsError if the existing file is malformed (it is left untouched) or a rule is bad
 */
export function addAllowRule(workspace: string, rule: string | readonly string[]): string {
  const file = localSettingsPath(workspace);
  const texts = typeof rule === 'string' ? [rule] : [...rule];
  for (const text of texts) {
    try {
      parseRules([text], 'allow', file);
    } catch (error) {
      if (error instanceof RuleParseError) throw new SettingsError(file, error.message);
      throw error;
    }
  }
  const existed = existsSync(file);
  const data = readSettingsFile(file) ?? {};
  validateSettings(data, { file, project: true, claude: false, root: workspace });
  const settings = data as Record<string, unknown>;
  const permissions = (settings.permissions ?? {}) as Record<string, unknown>;
  const allow = [...((permissions.allow ?? []) as string[])];
  for (const text of texts) if (!allow.includes(text.trim())) allow.push(text.trim());
  const next = { ...settings, permissions: { ...permissions, allow } };

  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomicSync(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o644 });
  } catch (error) {
    throw new SettingsError(file, `cannot write: ${(error as Error).message}`, { cause: error });
  }
  // The first write: the personal file goes into the project's .gitignore.
  if (!existed) ignoreLocalSettings(workspace);
  return file;
}
