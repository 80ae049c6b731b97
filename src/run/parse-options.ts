import { UsageError } from '../errors/xagent-error.js';

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

/**
 * Claude Code's `--allowedTools "Bash(git log:*),Read" Edit`: rules separated by commas or spaces,
 * except inside parentheses (`Bash(npm run test:*)` keeps its space).
 * @example splitToolList(['Bash(git log:*),Read', 'Edit']) // ['Bash(git log:*)', 'Read', 'Edit']
 */
export function splitToolList(values: readonly string[] | undefined): string[] {
  const rules: string[] = [];
  for (const value of values ?? []) {
    let depth = 0;
    let current = '';
    for (const c of value) {
      if (c === '(') depth++;
      else if (c === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (c === ',' || /\s/.test(c))) {
        if (current.trim()) rules.push(current.trim());
        current = '';
      } else current += c;
    }
    if (current.trim()) rules.push(current.trim());
  }
  return rules;
}

export function parseInspectPort(value: string | boolean | undefined): number {
  if (value === undefined || value === true || value === false) return 0;
  if (!/^\d+$/.test(value) || Number(value) > 65_535) {
    throw new UsageError(`--inspect "${value}" is not a port: use a number from 0 to 65535 (0 or none picks a free one)`);
  }
  return Number(value);
}

/**
 * `--inspect [port]` takes an optional value, so `xagent -p --inspect "fix the bug"` hands the
 * prompt to --inspect. A value that is not a port is given back as the first word of the prompt.
 */
export function splitInspectFlag(value: string | boolean | undefined, promptArgs: string[]): { port: number | null; promptArgs: string[] } {
  if (value === undefined || value === false) return { port: null, promptArgs };
  // `--inspect "fix the tests"`: the optional port swallowed the prompt. A single word is a mistyped port.
  if (typeof value === 'string' && !/^\d+$/.test(value)) {
    if (!/\s/.test(value.trim()))
      throw new UsageError(`--inspect "${value}" is not a port: use a number from 0 to 65535, or put the prompt after --inspect 0`);
    return { port: 0, promptArgs: [value, ...promptArgs] };
  }
  return { port: parseInspectPort(value), promptArgs };
}
