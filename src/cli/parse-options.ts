import { UsageError } from './exit-codes.js';

/** `90000` (ms), `90s`, `2m`, `1h`, `500ms` to milliseconds. */
export function parseDuration(text: string, flag = '--timeout'): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new UsageError(`${flag} "${text}" is not a duration: use 90000 (ms), 90s or 2m`);
  const value = Number(match[1]);
  const unit = match[2] ?? 'ms';
  const ms = value * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
  if (ms <= 0) throw new UsageError(`${flag} must be more than zero`);
  return Math.round(ms);
}

export function parsePositiveInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) {
    throw new UsageError(`${flag} "${text}" must be a whole number of at least 1`);
  }
  return Number(text);
}

export function parseChoice<T extends string>(text: string, choices: readonly T[], flag: string): T {
  if ((choices as readonly string[]).includes(text)) return text as T;
  throw new UsageError(`${flag} "${text}" must be one of: ${choices.join(', ')}`);
}
