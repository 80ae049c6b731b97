import { UsageError } from '../errors/xagent-error.js';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types.js';
import type { RunSpec } from './run-spec.js';

/**
 * What one task may set, in the library's names. One shape behind the three ways to give a task
 * in code: `query()`'s options, a line of a batch (`runBatch`, `xagent batch`) and `submit()`'s
 * options each extend it with what only they have.
 */
export interface TaskOptions {
  /** The workspace: file tools stay inside it, bash runs there. */
  cwd?: string;
  /** Model id; default ANTHROPIC_MODEL, else the CLI's default. */
  model?: string;
  maxTurns?: number;
  maxToolCalls?: number;
  /** Working time in ms; time spent waiting for a person's answer is not counted. */
  timeoutMs?: number;
  /** Default: the settings files' permissionMode, else 'default'. */
  permissionMode?: PermissionMode;
  /** Permission rules as in --allow / --deny, e.g. 'bash(npm test*)', 'roll_dice'. */
  allow?: readonly string[];
  deny?: readonly string[];
  /** Replaces the built system prompt (environment, tool guidance, AGENTS.md files). */
  systemPrompt?: string;
  /** Added after the system prompt, built or given. */
  appendSystemPrompt?: string;
  /** Extended thinking budget in tokens, 0 = off (at least 1024 otherwise); default MAX_THINKING_TOKENS, else off. */
  maxThinkingTokens?: number;
}

/** Every field of TaskOptions, for the callers' lists of known names. */
export const TASK_OPTION_NAMES = [
  'cwd',
  'model',
  'maxTurns',
  'maxToolCalls',
  'timeoutMs',
  'permissionMode',
  'allow',
  'deny',
  'systemPrompt',
  'appendSystemPrompt',
  'maxThinkingTokens',
] as const satisfies ReadonlyArray<keyof TaskOptions>;

/** The part of a RunSpec a task's options decide. */
export type TaskSpecPart = Pick<
  RunSpec,
  'cwd' | 'model' | 'limits' | 'permissionMode' | 'allow' | 'deny' | 'systemPrompt' | 'appendSystemPrompt' | 'maxThinkingTokens'
>;

/**
 * Checks each given field's type, whatever the caller typed (JSON lines and JavaScript callers
 * are not checked by the compiler). A bad one is a UsageError naming it, after `where`
 * (`line 3: `, or nothing for the library's options).
 * @example checkTaskOptions({ maxTurns: 0 }) // throws 'maxTurns must be a whole number of at least 1 (got 0)'
 */
export function checkTaskOptions(options: Readonly<Record<string, unknown>>, where = ''): void {
  for (const key of ['cwd', 'model', 'systemPrompt', 'appendSystemPrompt'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string') throw new UsageError(`${where}${key} must be a string`);
  }
  for (const key of ['maxTurns', 'maxToolCalls', 'timeoutMs'] as const) {
    const n = options[key];
    if (n !== undefined && (!Number.isSafeInteger(n) || (n as number) < 1))
      throw new UsageError(`${where}${key} must be a whole number of at least 1 (got ${String(n)})`);
  }
  const thinking = options.maxThinkingTokens;
  if (thinking !== undefined && (!Number.isSafeInteger(thinking) || (thinking as number) < 0)) {
    throw new UsageError(`${where}maxThinkingTokens must be a whole number, 0 for off (got ${String(thinking)})`);
  }
  const mode = options.permissionMode;
  if (mode !== undefined && !(PERMISSION_MODES as readonly unknown[]).includes(mode)) {
    throw new UsageError(`${where}permissionMode "${String(mode)}" must be one of: ${PERMISSION_MODES.join(', ')}`);
  }
  for (const key of ['allow', 'deny'] as const) {
    const rules = options[key];
    if (rules !== undefined && (!Array.isArray(rules) || rules.some((rule) => typeof rule !== 'string'))) {
      throw new UsageError(`${where}${key} must be an array of rules, e.g. ["bash(npm test*)"]`);
    }
  }
}

/**
 * A task's options (checked) laid over a base: each given field wins, rules add to the base's (a
 * deny of the base still stands), limits nobody gave stay the base's.
 * @example taskSpecPart({ maxTurns: 3, allow: ['bash'] }, { limits: {}, allow: ['read_file'] }) // { limits: { maxTurns: 3 }, allow: ['read_file', 'bash'], ... }
 */
export function taskSpecPart(options: TaskOptions, base: Partial<TaskSpecPart> = {}): TaskSpecPart {
  const limits = { ...base.limits };
  if (options.maxTurns !== undefined) limits.maxTurns = options.maxTurns;
  if (options.maxToolCalls !== undefined) limits.maxToolCalls = options.maxToolCalls;
  if (options.timeoutMs !== undefined) limits.timeoutMs = options.timeoutMs;
  const thinking = options.maxThinkingTokens;
  return {
    cwd: options.cwd ?? base.cwd,
    model: options.model ?? base.model,
    limits,
    permissionMode: options.permissionMode ?? base.permissionMode,
    allow: [...(base.allow ?? []), ...(options.allow ?? [])],
    deny: [...(base.deny ?? []), ...(options.deny ?? [])],
    systemPrompt: options.systemPrompt ?? base.systemPrompt,
    appendSystemPrompt: options.appendSystemPrompt ?? base.appendSystemPrompt,
    maxThinkingTokens: thinking === undefined ? base.maxThinkingTokens : String(thinking),
  };
}
