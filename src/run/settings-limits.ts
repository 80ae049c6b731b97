import type { TaskLimits } from '../engine/limits.js';
import { isObject } from '../settings/settings-read.js';
import { SettingsError } from '../settings/settings-error.js';
import { UsageError } from '../errors/xagent-error.js';
import { parseDuration } from './parse-options.js';

/** The settings key `limits`, as a project or a user writes it: `{"maxTurns": 200, "maxToolCalls": 1000, "timeout": "1h"}`. */
const KEYS = ['maxTurns', 'maxToolCalls', 'timeout'] as const;

/**
 * A task's limits: each one from the flag (or the library's option) if given, else from the
 * highest settings file that sets it, else the mode's default (`-p`'s DEFAULT_LIMITS, or none in
 * the interactive UI). `timeout` is milliseconds or a duration (`90s`, `30m`).
 * @example resolveLimits({ maxTurns: 5 }, [{ source: 'a.json', value: { maxTurns: 50, timeout: '1h' } }], DEFAULT_LIMITS)
 * // { maxTurns: 5, maxToolCalls: 500, timeoutMs: 3600000 }
 * @throws SettingsError naming the file for a value that is not a limit
 */
export function resolveLimits(
  given: Partial<TaskLimits>,
  layers: ReadonlyArray<{ source: string; value: unknown }>,
  defaults: TaskLimits,
): TaskLimits {
  const fromFiles: Partial<TaskLimits> = {};
  // Lowest precedence first, so that a higher file overwrites what a lower one set.
  for (const { source, value } of [...layers].reverse()) Object.assign(fromFiles, parseLimits(value, source));
  return {
    maxTurns: given.maxTurns ?? fromFiles.maxTurns ?? defaults.maxTurns,
    maxToolCalls: given.maxToolCalls ?? fromFiles.maxToolCalls ?? defaults.maxToolCalls,
    timeoutMs: given.timeoutMs ?? fromFiles.timeoutMs ?? defaults.timeoutMs,
  };
}

function parseLimits(value: unknown, file: string): Partial<TaskLimits> {
  if (!isObject(value))
    throw new SettingsError(file, '"limits" must be an object such as {"maxTurns": 200, "maxToolCalls": 1000, "timeout": "1h"}');
  const unknown = Object.keys(value).filter((key) => !(KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new SettingsError(file, `unknown key "limits.${unknown[0]}" (expected ${KEYS.join(', ')})`);
  const limits: Partial<TaskLimits> = {};
  if (value.maxTurns !== undefined) limits.maxTurns = wholeNumber(value.maxTurns, 'maxTurns', file);
  if (value.maxToolCalls !== undefined) limits.maxToolCalls = wholeNumber(value.maxToolCalls, 'maxToolCalls', file);
  if (value.timeout !== undefined) limits.timeoutMs = duration(value.timeout, file);
  return limits;
}

function wholeNumber(value: unknown, key: string, file: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
  throw new SettingsError(file, `"limits.${key}" must be a whole number of at least 1, got ${JSON.stringify(value)}`);
}

function duration(value: unknown, file: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.round(value);
  if (typeof value === 'string') {
    try {
      return parseDuration(value, '"limits.timeout"');
    } catch (error) {
      if (error instanceof UsageError) throw new SettingsError(file, error.message);
      throw error;
    }
  }
  throw new SettingsError(file, `"limits.timeout" must be milliseconds or a duration such as "30m", got ${JSON.stringify(value)}`);
}
