/** The permission layer: what the engine and the CLI import. */
export { checkPermission, planModeMessage, type CheckPermissionInput } from './check-permission.js';
export { denialsToModel, notPermittedMessage } from './denials-to-model.js';
export { createPermissionPolicy, type PermissionPolicyOptions, type SessionPermissionPolicy } from './policy.js';
export { formatRule, parseRule, parseRules, RuleParseError, type PermissionRule, type RuleSpec } from './rules.js';
export {
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionPolicy,
  type PermissionPrompt,
  type PromptOutcome,
  type PromptRequest,
} from './types.js';
