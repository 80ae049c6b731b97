import { HOOK_EVENTS, type HookEventName } from '../../machines/hooks.js';
import { ALL_HOOK_EVENTS, CLAUDE_CODE_ONLY_EVENTS, isAnyHookEvent, NOT_YET_RUN_EVENTS } from './events.js';
import { compileMatcher } from './matcher.js';
import type { HookDefinition, HooksConfig, ResolvedHook } from './types.js';
import { UsageError } from '../errors/xagent-error.js';

/** What is wrong with a `hooks` value; settings.ts turns it into a SettingsError naming the file. */
export class HookConfigError extends UsageError {
  override readonly name = 'HookConfigError';
  override readonly fault = 'config';
}

/** The longest timeout a hook may ask for: an hour. */
const MAX_TIMEOUT_SECONDS = 3600;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownEvent(event: string): HookConfigError {
  return new HookConfigError(`unknown hook event "hooks.${event}" (expected ${ALL_HOOK_EVENTS.join(', ')})`);
}

/** Claude Code's hook types xagent does not run (a model prompt, an agent, an HTTP call): skipped with a warning. */
const CLAUDE_CODE_ONLY_TYPES = ['prompt', 'agent', 'http'];

/**
 * Checks a settings file's `hooks` value (Claude Code's shape) and resolves it. Only command hooks
 * come from files; function hooks are given in code (`resolveHooks`). Claude Code's events and
 * hook types that xagent does not run are skipped, each with a line given to `warn`, so a file
 * written for Claude Code is never refused for them.
 * @example parseHookSettings({ PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: './check.sh' }] }] }, '/ws/.xagent/settings.json')
 * @throws HookConfigError with the problem and where it is
 */
export function parseHookSettings(value: unknown, source: string, warn: (problem: string) => void = () => undefined): ResolvedHook[] {
  if (!isObject(value)) throw new HookConfigError('"hooks" must be an object keyed by event (PreToolUse, PostToolUse, ...)');
  const kept: HooksConfig = {};
  for (const [event, groups] of Object.entries(value)) {
    if (CLAUDE_CODE_ONLY_EVENTS.includes(event)) {
      warn(`"hooks.${event}" is a Claude Code event that xagent does not run; skipped`);
      continue;
    }
    if (!isAnyHookEvent(event)) throw unknownEvent(event);
    if (NOT_YET_RUN_EVENTS.includes(event)) warn(`"hooks.${event}" is accepted, but xagent does not run ${event} hooks yet`);
    if (!Array.isArray(groups)) throw new HookConfigError(`"hooks.${event}" must be a list of {"matcher", "hooks"} objects`);
    kept[event] = groups.map((group: unknown, i) => {
      const where = `hooks.${event}[${i}]`;
      if (!isObject(group)) throw new HookConfigError(`${where} must be an object with "matcher" and "hooks"`);
      if (group.matcher !== undefined && typeof group.matcher !== 'string') throw new HookConfigError(`${where}.matcher must be a string`);
      if (!Array.isArray(group.hooks)) throw new HookConfigError(`${where}.hooks must be a list of {"type": "command", "command"} objects`);
      const hooks = group.hooks.filter((hook: unknown, j) => {
        if (isObject(hook) && typeof hook.type === 'string' && CLAUDE_CODE_ONLY_TYPES.includes(hook.type)) {
          warn(`${where}.hooks[${j}] is a "${hook.type}" hook, which xagent does not run; skipped`);
          return false;
        }
        checkCommandHook(hook, `${where}.hooks[${j}]`);
        return true;
      }) as HookDefinition[];
      return { ...(group.matcher === undefined ? {} : { matcher: group.matcher as string }), hooks };
    });
  }
  return resolveHooks(kept, source);
}

function checkCommandHook(hook: unknown, where: string): void {
  if (!isObject(hook)) throw new HookConfigError(`${where} must be an object {"type": "command", "command": "..."}`);
  if (hook.type !== 'command') throw new HookConfigError(`${where}.type must be "command", got ${JSON.stringify(hook.type)}`);
  if (typeof hook.command !== 'string' || hook.command.trim() === '')
    throw new HookConfigError(`${where}.command must be a non-empty string`);
  checkTimeout(hook.timeout, where);
}

function checkTimeout(timeout: unknown, where: string): void {
  if (timeout === undefined) return;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > MAX_TIMEOUT_SECONDS) {
    throw new HookConfigError(
      `${where}.timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, got ${JSON.stringify(timeout)}`,
    );
  }
}

/**
 * Resolves hooks (from a file, or given in code with function hooks) into the runner's list.
 * @example resolveHooks({ Stop: [{ hooks: [{ type: 'function', callback: () => ({}) }] }] }, 'query()')
 * @throws HookConfigError for an unknown event, a bad matcher, a bad hook or timeout
 */
export function resolveHooks(config: HooksConfig, source: string): ResolvedHook[] {
  const resolved: ResolvedHook[] = [];
  for (const [event, groups] of Object.entries(config)) {
    if (!isAnyHookEvent(event)) throw new HookConfigError(`unknown hook event "${event}" (expected ${ALL_HOOK_EVENTS.join(', ')})`);
    (groups ?? []).forEach((group, i) => {
      let matcher: RegExp | null;
      try {
        matcher = compileMatcher(group.matcher);
      } catch (error) {
        throw new HookConfigError(`hooks.${event}[${i}].matcher is not a valid regular expression: ${(error as Error).message}`);
      }
      group.hooks.forEach((hook: HookDefinition, j) => {
        const where = `hooks.${event}[${i}].hooks[${j}]`;
        if (hook.type === 'function') {
          if (typeof hook.callback !== 'function') throw new HookConfigError(`${where}.callback must be a function`);
          checkTimeout(hook.timeout, where);
        } else checkCommandHook(hook, where);
        resolved.push({ event, matcher, hook, source });
      });
    });
  }
  return resolved;
}

/** The events that have at least one hook: the chart's data (its hook guards are false for the rest). */
export function hookEventsOf(hooks: readonly ResolvedHook[]): HookEventName[] {
  return HOOK_EVENTS.filter((event) => hooks.some((h) => h.event === event));
}
