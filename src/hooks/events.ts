import { HOOK_EVENTS, type HookEventName } from '../../machines/hooks.js';

/**
 * Which hook events a settings file may name, and what xagent does with each. The chart runs
 * its five (machines/hooks.ts); these are the rest of Claude Code's events, each run where
 * xagent has the moment, or skipped with a warning, never a reason to refuse a file.
 */

/** Events xagent accepts beyond the chart's: SessionEnd runs where a session ends (the CLI, the library). */
export const EXTRA_HOOK_EVENTS = ['SessionEnd', 'PreCompact', 'Notification', 'SubagentStop', 'PermissionRequest'] as const;
export type ExtraHookEvent = (typeof EXTRA_HOOK_EVENTS)[number];

/** Every event a hook may be configured for. */
export type AnyHookEvent = HookEventName | ExtraHookEvent;
export const ALL_HOOK_EVENTS: readonly AnyHookEvent[] = [...HOOK_EVENTS, ...EXTRA_HOOK_EVENTS];

/**
 * Accepted and resolved, but not run: PermissionRequest (a hook that answers the dialog needs a
 * state of its own in the chart). Configuring one gives a warning. PreCompact runs in the
 * compaction's actor before the summary, Notification beside the permission prompt
 * (src/engine/implementations.ts): both only listen. SubagentStop runs in a subagent's chart
 * where the main agent's runs Stop (subagent-hooks.ts).
 */
export const NOT_YET_RUN_EVENTS: readonly AnyHookEvent[] = ['PermissionRequest'];

/** Claude Code events xagent has no moment for: skipped with a warning. */
export const CLAUDE_CODE_ONLY_EVENTS: readonly string[] = [
  'PostToolUseFailure',
  'PostToolBatch',
  'SubagentStart',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'ConfigChange',
  'CwdChanged',
  'FileChanged',
  'WorktreeCreate',
  'WorktreeRemove',
  'PostCompact',
  'Elicitation',
  'ElicitationResult',
  'InstructionsLoaded',
  'UserPromptExpansion',
  'StopFailure',
  'PermissionDenied',
];

export function isAnyHookEvent(name: string): name is AnyHookEvent {
  return (ALL_HOOK_EVENTS as readonly string[]).includes(name);
}

/** Whether the chart runs this event (the other accepted ones run outside it, or not yet). */
export function isChartHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}
