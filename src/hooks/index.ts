/**
 * Hooks: shell commands from the settings files (and functions given to `query()`) that run at
 * five points of the agent loop. The chart decides when (machines/query-engine.ts); this runs them.
 * @example const hooks = resolveHooks({ PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'function', callback: () => ({ decision: 'deny', reason: 'no shell today' }) }] }] }, 'my program');
 */
export type {
  CommandHook,
  FunctionHook,
  HookDefinition,
  HookEventName,
  HookInput,
  HookMatcherGroup,
  HookOutcome,
  HookOutput,
  HookRunReport,
  HooksConfig,
  ResolvedHook,
} from './types.js';
export { HOOK_EVENTS } from './types.js';
export { HookConfigError, hookEventsOf, parseHookSettings, resolveHooks } from './config.js';
export { compileMatcher, matchesTool } from './matcher.js';
export { DEFAULT_HOOK_TIMEOUT_SECONDS, hookInputJson, hooksFor, runHooks, type HookSession } from './run-hooks.js';
export { runEventHooks } from './run-event-hooks.js';
export { ALL_HOOK_EVENTS, EXTRA_HOOK_EVENTS, NOT_YET_RUN_EVENTS, type AnyHookEvent } from './events.js';
