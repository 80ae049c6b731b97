import { DEFAULT_LIMITS, type TaskLimits } from '../engine/limits.js';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types.js';
import type { RunFlags } from './add-run-flags.js';
import { parseChoice, parseDuration, parsePositiveInt, splitToolList } from './parse-options.js';
import { UsageError } from '../errors/xagent-error.js';

/**
 * The run flags every task command shares, typed and checked: the one parse behind `-p`, the
 * interactive UI, `acp`, `submit` and `batch`. Plain JSON, so a durable task carries it as it is.
 */
export interface ParsedRunFlags {
  model?: string;
  modelScript?: string;
  /** Only the limits a flag gives: the settings' `limits` fill the rest, then `defaultLimits` (buildRunConfig). */
  limits: Partial<TaskLimits>;
  /** What fills a limit neither a flag nor the settings give: `-p`'s DEFAULT_LIMITS, or none in the interactive UI. */
  defaultLimits: TaskLimits;
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
  /** --permission-prompt-tool: the MCP tool (`mcp__<server>__<tool>`) that answers permission questions in -p. */
  permissionPromptTool?: string;
}

/** What --permission-prompt-tool takes: an MCP tool's name. */
const PROMPT_TOOL_NAME = /^mcp__[A-Za-z0-9_-]+__\S+$/;

/**
 * Parses the shared run flags; `defaults` fills the limits neither a flag nor the settings' `limits` give (`-p`'s DEFAULT_LIMITS, or
 * none in the interactive UI). @throws UsageError naming the flag, before any request.
 * @example parseRunFlags({ maxTurns: '20', allowedTools: ['Read,Bash(ls:*)'] }, {}).allow // ['Read', 'Bash(ls:*)']
 */
export function parseRunFlags(raw: RunFlags, env: NodeJS.ProcessEnv, defaults: TaskLimits = DEFAULT_LIMITS): ParsedRunFlags {
  const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));
  return {
    ...optional('model', raw.model),
    ...optional('modelScript', raw.modelScript),
    limits: {
      ...optional('maxTurns', raw.maxTurns === undefined ? undefined : parsePositiveInt(raw.maxTurns, '--max-turns')),
      ...optional('maxToolCalls', raw.maxToolCalls === undefined ? undefined : parsePositiveInt(raw.maxToolCalls, '--max-tool-calls')),
      ...optional('timeoutMs', raw.timeout === undefined ? undefined : parseDuration(raw.timeout)),
    },
    defaultLimits: defaults,
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
    ...optional('permissionPromptTool', raw.permissionPromptTool === undefined ? undefined : promptTool(raw.permissionPromptTool)),
  };
}

function promptTool(name: string): string {
  if (PROMPT_TOOL_NAME.test(name)) return name;
  throw new UsageError(
    `--permission-prompt-tool ${JSON.stringify(name)} is not an MCP tool's name: give mcp__<server>__<tool>, a tool of a server in .mcp.json or the settings`,
  );
}
