import type { PermissionDecision, ToolCall } from '../../machines/types.js';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/**
 * What the engine asks about each validated call. `decide` is synchronous and pure (rules, mode,
 * defaults); `ask` is called only when `decide` said `ask`, and may prompt a person.
 */
export interface PermissionPolicy {
  /** The mode in force (hooks are told it as `permission_mode`). */
  readonly mode?: PermissionMode;
  decide(call: ToolCall, tool: { readOnly: boolean }): PermissionDecision;
  ask(call: ToolCall, pending: PermissionDecision, signal: AbortSignal): Promise<PermissionDecision>;
}
