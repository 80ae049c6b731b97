import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../files/write-file-atomic-sync.js';
import { xagentHome } from '../sessions/layout.js';
import path from 'node:path';
import type { PermissionBehavior } from '../../machines/types.js';
import { BUILTIN_TOOL_NAMES, unknownToolProblem } from './known-tools.js';
import { parseSandboxLayer, SandboxSettingsError, type SandboxLayer } from '../sandbox/sandbox-settings.js';
import { parseRules, RuleParseError, type PermissionRule } from './rules.js';
import { HookConfigError, parseHookSettings } from '../hooks/config.js';
import type { ResolvedHook } from '../hooks/types.js';
import { PERMISSION_MODES, type PermissionMode } from './types.js';

/**
 * Permission settings: `$XAGENT_HOME/settings.json` (the user's), `<workspace>/.xagent/settings.json`
 * (the project's, in git), `<workspace>/.xagent/settings.local.json` (the person's, out of git), and
 * `--allow` / `--deny`. All rules apply together; which one decides is a
 * matter of behaviour (deny, ask, allow), never of which file it came from.
 *
 * ```json
 * { "permissions": { "allow": ["bash(npm test*)"], "deny": ["bash(rm*)"], "ask": [] }, "permissionMode": "acceptEdits" }
 * ```
 */

/** A settings file (or flag) that cannot be used; the CLI exits 2 with this message. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
  readonly code = 'SETTINGS_INVALID';
  constructor(
    /** The file path, or the flag (`--allow`). */
    readonly source: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${source}: ${problem}`, options);
  }
}

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
  /** The hooks of every file (all of them run; see src/hooks/). */
  hooks: ResolvedHook[];
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
}

const BEHAVIORS: readonly PermissionBehavior[] = ['allow', 'deny', 'ask'];

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

/**
 * Loads every permission rule and the configured mode.
 * @example const { rules, mode } = loadSettings({ workspace: process.cwd(), allow: ['bash(npm test*)'] });
 * @throws SettingsError naming the file (or flag) and the problem
 */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const loaded = loadSettingsFiles(options);
  for (const rule of loaded.rules) {
    const problem = unknownToolProblem(rule, options.knownTools ?? BUILTIN_TOOL_NAMES);
    if (problem) throw new SettingsError(rule.source, problem);
  }
  return loaded;
}

function loadSettingsFiles({
  workspace,
  home = xagentHome(),
  allow = [],
  deny = [],
  readFiles = true,
}: LoadSettingsOptions): LoadedSettings {
  const rules: PermissionRule[] = [...flagRules(allow, 'allow'), ...flagRules(deny, 'deny')];
  const files: string[] = [];
  const sandbox: SandboxLayer[] = [];
  const mcpServers: LoadedSettings['mcpServers'] = [];
  const hooks: ResolvedHook[] = [];
  let mode: PermissionMode | undefined;
  let modeSource: string | undefined;
  const userFile = path.resolve(userSettingsPath(home));
  const projectFile = path.resolve(projectSettingsPath(workspace));
  const localFile = path.resolve(localSettingsPath(workspace));
  // Highest precedence first (the first mode found wins): local, project, user.
  // When the workspace is the home directory the project file is the user's; read it once, as the user's.
  const sources = [
    { file: localFile, project: true },
    ...(projectFile === userFile ? [] : [{ file: projectFile, project: true }]),
    { file: userFile, project: false },
  ];
  for (const { file, project } of readFiles ? sources : []) {
    // .mcp.json ranks below the project's settings files and above the user's.
    if (!project) mcpServers.push(...readMcpJson(path.resolve(mcpJsonPath(workspace))));
    const data = readSettingsFile(file);
    if (data === undefined) continue;
    files.push(file);
    const settings = validateSettings(data, file, project);
    if ((data as Record<string, unknown>).mcpServers !== undefined) {
      mcpServers.push({ source: file, value: (data as Record<string, unknown>).mcpServers });
    }
    rules.push(...settings.rules);
    if (settings.sandbox) sandbox.push(settings.sandbox);
    hooks.push(...settings.hooks);
    if (settings.mode && !mode) {
      mode = settings.mode;
      modeSource = file;
    }
  }
  return { rules, mode, modeSource, files, sandbox, mcpServers, hooks };
}

/** `.mcp.json`'s `mcpServers`, if the file exists; its other keys are not ours. */
function readMcpJson(file: string): LoadedSettings['mcpServers'] {
  const data = readSettingsFile(file);
  if (data === undefined) return [];
  if (!isObject(data)) throw new SettingsError(file, 'expected a JSON object such as {"mcpServers": {...}}');
  return data.mcpServers === undefined ? [] : [{ source: file, value: data.mcpServers }];
}

function flagRules(texts: readonly string[], behavior: 'allow' | 'deny'): PermissionRule[] {
  return texts.flatMap((text) => {
    try {
      return parseRules([text], behavior, `--${behavior}`);
    } catch (error) {
      if (error instanceof RuleParseError) throw new SettingsError(`--${behavior}`, error.message);
      throw error;
    }
  });
}

/** The parsed JSON of a settings file, or undefined when there is none. */
function readSettingsFile(file: string): unknown {
  let text: string;
  try {
    text = readRegularFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof SettingsError) throw error;
    throw new SettingsError(file, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SettingsError(file, `not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

/** A FIFO or a device (a link to /dev/zero) would block start-up or never end: only regular files are read. */
function readRegularFileSync(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile())
      throw new SettingsError(file, 'not a regular file (a pipe, device or socket); settings must be a JSON file');
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the shape (`permissions`, `permissionMode`, `sandbox`, `hooks`); other keys belong to others and are kept. */
function validateSettings(
  data: unknown,
  file: string,
  project: boolean,
): { rules: PermissionRule[]; mode?: PermissionMode; sandbox?: SandboxLayer; hooks: ResolvedHook[] } {
  if (!isObject(data)) throw new SettingsError(file, 'expected a JSON object at the top level');
  const rules: PermissionRule[] = [];
  const permissions = data.permissions;
  if (permissions !== undefined) {
    if (!isObject(permissions)) throw new SettingsError(file, '"permissions" must be an object with "allow", "deny" and "ask" lists');
    for (const key of Object.keys(permissions)) {
      if (!(BEHAVIORS as readonly string[]).includes(key)) {
        throw new SettingsError(file, `unknown key "permissions.${key}" (expected allow, deny, ask)`);
      }
    }
    for (const behavior of BEHAVIORS) {
      const list = permissions[behavior];
      if (list === undefined) continue;
      if (!Array.isArray(list)) throw new SettingsError(file, `"permissions.${behavior}" must be a list of rule strings`);
      list.forEach((text: unknown, index) => {
        const where = `permissions.${behavior}[${index}]`;
        if (typeof text !== 'string') throw new SettingsError(file, `${where} must be a string, got ${JSON.stringify(text)}`);
        try {
          rules.push(...parseRules([text], behavior, file));
        } catch (error) {
          if (error instanceof RuleParseError) throw new SettingsError(file, `${where}: ${error.message}`);
          throw error;
        }
      });
    }
  }
  let sandbox: SandboxLayer | undefined;
  try {
    if (data.sandbox !== undefined) sandbox = parseSandboxLayer(data.sandbox, file, !project);
  } catch (error) {
    if (error instanceof SandboxSettingsError) throw new SettingsError(file, error.message);
    throw error;
  }
  let hooks: ResolvedHook[] = [];
  try {
    if (data.hooks !== undefined) hooks = parseHookSettings(data.hooks, file);
  } catch (error) {
    if (error instanceof HookConfigError) throw new SettingsError(file, error.message);
    throw error;
  }
  const mode = data.permissionMode;
  if (mode === undefined) return { rules, sandbox, hooks };
  if (typeof mode !== 'string' || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new SettingsError(file, `"permissionMode" must be one of ${PERMISSION_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  }
  // A cloned repository must not be able to switch off every prompt for whoever runs xagent in it.
  if (project && mode === 'bypassPermissions') {
    throw new SettingsError(file, '"permissionMode": "bypassPermissions" is only accepted from the user settings or --permission-mode');
  }
  return { rules, mode: mode as PermissionMode, sandbox, hooks };
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
  const data = readSettingsFile(file) ?? {};
  validateSettings(data, file, true);
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
  return file;
}
