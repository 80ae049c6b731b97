import type { PermissionBehavior } from '../../machines/types.js';
import { HookConfigError, parseHookSettings } from '../hooks/config.js';
import type { ResolvedHook } from '../hooks/types.js';
import { parseSandboxLayer, SandboxSettingsError, type SandboxLayer } from '../sandbox/sandbox-settings.js';
import { parseRules, RuleParseError, type PermissionRule } from '../permissions/rules.js';
import { SettingsError } from './settings-error.js';
import { parseEnvSection } from './settings-env.js';
import { isObject } from './settings-read.js';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types.js';

/**
 * One settings file's content, checked. Two dialects: xagent's own files (`.xagent/`,
 * `$XAGENT_HOME`), whose unknown permission keys are refused, and Claude Code's
 * (`.claude/settings*.json`, `~/.claude/settings.json`), where whatever xagent does not use is
 * skipped with a warning, as Claude Code itself accepts the file. In both, a rule that cannot
 * match anything (`Bash(`, a mistyped tool) is refused, naming the file and the entry.
 */

export interface SettingsFileSource {
  file: string;
  /** A project's file (in the repository), not the person's own. */
  project: boolean;
  /** Written for Claude Code. */
  claude: boolean;
  /** Where the rules' `/path` patterns start (the folder holding `.claude`). */
  root: string;
}

export interface CheckedSettings {
  rules: PermissionRule[];
  mode?: PermissionMode;
  sandbox?: SandboxLayer;
  hooks: ResolvedHook[];
  /** The file's `mcpServers` value (xagent's files only; Claude Code keeps its servers elsewhere). */
  mcpServers?: unknown;
  /** The file's `modelPrices` value (xagent's files only), checked by src/model/cost.ts. */
  modelPrices?: unknown;
  /** The file's `limits` value (xagent's files only), checked by src/run/settings-limits.ts. */
  limits?: unknown;
  /** The file's `env` variables (both dialects), for what the run starts. */
  env?: Record<string, string>;
  /** What was skipped, one line each, without the file name. */
  warnings: string[];
}

const BEHAVIORS: readonly PermissionBehavior[] = ['allow', 'deny', 'ask'];
/** The keys xagent reads from Claude Code's files. */
const CLAUDE_KEYS = ['permissions', 'hooks', 'env'];

/** @throws SettingsError naming the file and the problem */
export function validateSettings(data: unknown, source: SettingsFileSource): CheckedSettings {
  const { file, project, claude } = source;
  if (!isObject(data)) throw new SettingsError(file, 'expected a JSON object at the top level');
  const warnings: string[] = [];
  const checked: CheckedSettings = { rules: [], hooks: [], warnings };
  if (claude) {
    const ignored = Object.keys(data).filter((key) => !CLAUDE_KEYS.includes(key) && key !== '$schema');
    if (ignored.length > 0) warnings.push(`ignored (xagent does not use them): ${ignored.join(', ')}`);
  }
  const permissions = data.permissions;
  let mode: unknown = claude ? undefined : data.permissionMode;
  let modeKey = 'permissionMode';
  if (permissions !== undefined) {
    if (!isObject(permissions)) throw new SettingsError(file, '"permissions" must be an object with "allow", "deny" and "ask" lists');
    for (const key of Object.keys(permissions)) {
      if ((BEHAVIORS as readonly string[]).includes(key) || key === 'defaultMode') continue;
      if (key === 'additionalDirectories') {
        const list = permissions[key];
        if (Array.isArray(list) && list.length === 0) continue;
        warnings.push('"permissions.additionalDirectories" ignored: xagent\'s file tools stay inside the workspace');
      } else if (claude || key === 'disableBypassPermissionsMode') {
        warnings.push(`"permissions.${key}" ignored (xagent does not use it)`);
      } else {
        throw new SettingsError(file, `unknown key "permissions.${key}" (expected allow, deny, ask, defaultMode)`);
      }
    }
    for (const behavior of BEHAVIORS) checked.rules.push(...ruleList(permissions[behavior], behavior, source));
    if (mode === undefined && permissions.defaultMode !== undefined) {
      mode = permissions.defaultMode;
      modeKey = 'permissions.defaultMode';
    }
  }
  try {
    if (data.hooks !== undefined) checked.hooks = parseHookSettings(data.hooks, file, (problem) => warnings.push(problem));
  } catch (error) {
    if (error instanceof HookConfigError) throw new SettingsError(file, error.message);
    throw error;
  }
  if (data.env !== undefined) {
    const env = parseEnvSection(data.env, file, claude);
    checked.env = env.vars;
    warnings.push(...env.warnings);
  }
  if (claude) return { ...checked, ...claudeMode(mode, project, warnings) };
  try {
    if (data.sandbox !== undefined) checked.sandbox = parseSandboxLayer(data.sandbox, file, !project);
  } catch (error) {
    if (error instanceof SandboxSettingsError) throw new SettingsError(file, error.message);
    throw error;
  }
  if (data.mcpServers !== undefined) checked.mcpServers = data.mcpServers;
  if (data.modelPrices !== undefined) checked.modelPrices = data.modelPrices;
  if (data.limits !== undefined) checked.limits = data.limits;
  if (mode === undefined) return checked;
  if (typeof mode !== 'string' || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new SettingsError(file, `"${modeKey}" must be one of ${PERMISSION_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  }
  // A cloned repository must not be able to switch off every prompt for whoever runs xagent in it.
  if (project && mode === 'bypassPermissions') {
    throw new SettingsError(file, `"${modeKey}": "bypassPermissions" is only accepted from the user settings or --permission-mode`);
  }
  return { ...checked, mode: mode as PermissionMode };
}

/** Claude Code's `permissions.defaultMode`: honoured where xagent has the mode and the file may set it, else a warning. */
function claudeMode(mode: unknown, project: boolean, warnings: string[]): { mode?: PermissionMode } {
  if (mode === undefined) return {};
  if (typeof mode !== 'string' || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    warnings.push(`"permissions.defaultMode" ${JSON.stringify(mode)} ignored (xagent's modes: ${PERMISSION_MODES.join(', ')})`);
    return {};
  }
  if (project && mode === 'bypassPermissions') {
    warnings.push('"permissions.defaultMode": "bypassPermissions" ignored: only your own settings or --permission-mode may turn it on');
    return {};
  }
  return { mode: mode as PermissionMode };
}

function ruleList(list: unknown, behavior: PermissionBehavior, { file, root }: SettingsFileSource): PermissionRule[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new SettingsError(file, `"permissions.${behavior}" must be a list of rule strings`);
  return list.flatMap((text: unknown, index) => {
    const where = `permissions.${behavior}[${index}]`;
    if (typeof text !== 'string') throw new SettingsError(file, `${where} must be a string, got ${JSON.stringify(text)}`);
    try {
      return parseRules([text], behavior, file, root);
    } catch (error) {
      if (error instanceof RuleParseError) throw new SettingsError(file, `${where}: ${error.message}`);
      throw error;
    }
  });
}
