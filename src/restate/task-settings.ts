import type { TaskLimits } from '../engine/limits.js';
import type { AnyHookEvent } from '../hooks/events.js';
import type { CommandHook, ResolvedHook } from '../hooks/types.js';
import type { PermissionRule } from '../permissions/rules.js';
import type { PermissionMode } from '../permissions/types.js';
import type { RunConfig } from '../run/run-config.js';

/**
 * What decides a task's calls, as the worker that first ran it resolved it from its settings files
 * and the spec: the permission mode and rules, the hooks and the limits. It is journaled once
 * (the task's first step), so every later attempt, on whichever worker with whatever settings
 * files, decides the same calls the same way and its replay stays in step with the journal.
 * Plain JSON: a hook's matcher travels as its source.
 */
export interface TaskSettings {
  permissionMode: PermissionMode;
  rules: PermissionRule[];
  hooks: JournaledHook[];
  limits: TaskLimits;
}

interface JournaledHook {
  event: AnyHookEvent;
  matcher: { source: string; flags: string } | null;
  hook: CommandHook;
  source: string;
}

/** The settings of a run, to journal. A worker's settings hold command hooks only (function hooks come from code). */
export function taskSettingsOf(config: RunConfig): TaskSettings {
  return {
    permissionMode: config.permissionMode,
    rules: config.rules.map((rule) => ({ ...rule })),
    hooks: config.hooks.flatMap((resolved) =>
      resolved.hook.type === 'command'
        ? [
            {
              event: resolved.event,
              matcher: resolved.matcher ? { source: resolved.matcher.source, flags: resolved.matcher.flags } : null,
              hook: resolved.hook,
              source: resolved.source,
            },
          ]
        : [],
    ),
    limits: config.limits,
  };
}

/** The run as the journaled settings decide it, whatever this worker's own files say. */
export function withTaskSettings(config: RunConfig, settings: TaskSettings): RunConfig {
  const hooks: ResolvedHook[] = settings.hooks.map((journaled) => ({
    ...journaled,
    matcher: journaled.matcher ? new RegExp(journaled.matcher.source, journaled.matcher.flags) : null,
  }));
  return { ...config, permissionMode: settings.permissionMode, rules: settings.rules, hooks, limits: settings.limits };
}
