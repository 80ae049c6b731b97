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
 * Accepted and resolved, but no state of the chart runs them yet (the moment, before compaction
 * or when the permission dialog opens, belongs to the chart): configuring one gives a warning.
 * `runEventHooks` (run-event-hooks.ts) is what the chart will call.
 */
export const NOT_YET_RUN_EVENTS: readonly AnyHookEvent[] = ['PreCompact', 'Notification', 'SubagentStop', 'PermissionRequest'];

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
