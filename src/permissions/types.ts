import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import type { PermissionRule } from './rules.js';

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

export interface PromptRequest {
  call: ToolCall;
  /** The `ask` decision being put to the person; its decidedBy says why. */
  pending: PermissionDecision;
  signal: AbortSignal;
}

export interface PromptOutcome {
  decision: PermissionDecision;
  /** Allow rules "always" saved; the policy applies them for the rest of the session too. */
  savedRules: PermissionRule[];
}

/** Puts one `ask` to a person. */
export type PermissionPrompt = (request: PromptRequest) => Promise<PromptOutcome>;
