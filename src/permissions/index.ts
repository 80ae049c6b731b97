/** The permission layer: what the engine and the CLI import. */
export { checkPermission, planModeMessage, type CheckPermissionInput } from './check-permission.js';
export { createPermissionPolicy, type PermissionPolicyOptions, type SessionPermissionPolicy } from './policy.js';
export { createTerminalPrompt, type LineSource, type PermissionPrompt, type PromptOutcome, type PromptRequest } from './prompt.js';
export { formatRule, parseRule, parseRules, RuleParseError, type PermissionRule, type RuleSpec } from './rules.js';
export {
  addAllowRule,
  loadSettings,
  projectSettingsPath,
  SettingsError,
  userSettingsPath,
  type LoadedSettings,
} from './settings.js';
export { PERMISSION_MODES, type PermissionMode, type PermissionPolicy } from './types.js';
