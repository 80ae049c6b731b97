import { DEFAULT_LIMITS, type TaskLimits } from '../engine/limits.js';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types.js';
import type { RunFlags } from './add-run-flags.js';
import { parseChoice, parseDuration, parsePositiveInt, splitToolList } from './parse-options.js';

/**
 * The run flags every task command shares, typed and checked: the one parse behind `-p`, the
 * interactive UI, `acp`, `submit` and `batch`. Plain JSON, so a durable task carries it as it is.
 */
export interface ParsedRunFlags {
  model?: string;
  modelScript?: string;
  limits: TaskLimits;
  permissionMode?: PermissionMode;
  /** --allow and --allowedTools together, --deny and --disallowedTools together. */
  allow: string[];
  deny: string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** --sandbox / --no-sandbox; absent lets the settings decide. */
  sandbox?: boolean;
  /** Still text: the environment variables they override are text too. */
  maxThinkingTokens?: string;
  contextWindow?: string;
  /** --trust, or XAGENT_TRUST=1. */
  trust: boolean;
}

/**
 * Parses the shared run flags; `defaults` fills the limits no flag gives (`-p`'s DEFAULT_LIMITS, or
 * none in the interactive UI). @throws UsageError naming the flag, before any request.
 * @example parseRunFlags({ maxTurns: '20', allowedTools: ['Read,Bash(ls:*)'] }, {}).allow // ['Read', 'Bash(ls:*)']
 */
export function parseRunFlags(raw: RunFlags, env: NodeJS.ProcessEnv, defaults: TaskLimits = DEFAULT_LIMITS): ParsedRunFlags {
  const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));
  return {
    ...optional('model', raw.model),
    ...optional('modelScript', raw.modelScript),
    limits: {
      maxTurns: raw.maxTurns === undefined ? defaults.maxTurns : parsePositiveInt(raw.maxTurns, '--max-turns'),
      maxToolCalls: raw.maxToolCalls === undefined ? defaults.maxToolCalls : parsePositiveInt(raw.maxToolCalls, '--max-tool-calls'),
      timeoutMs: raw.timeout === undefined ? defaults.timeoutMs : parseDuration(raw.timeout),
    },
    ...optional(
      'permissionMode',
      raw.permissionMode === undefined ? undefined : parseChoice(raw.permissionMode, PERMISSION_MODES, '--permission-mode'),
    ),
    allow: [...(raw.allow ?? []), ...splitToolList(raw.allowedTools)],
    deny: [...(raw.deny ?? []), ...splitToolList(raw.disallowedTools)],
    ...optional('systemPrompt', raw.systemPrompt),
    ...optional('appendSystemPrompt', raw.appendSystemPrompt),
    ...optional('sandbox', raw.sandbox),
    ...optional('maxThinkingTokens', raw.maxThinkingTokens),
    ...optional('contextWindow', raw.contextWindow),
    trust: raw.trust === true || env.XAGENT_TRUST === '1',
  };
}
