import path from 'node:path';
import { UsageError } from '../errors/xagent-error.js';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types.js';
import type { RunSpec } from '../run/run-spec.js';

/**
 * One task of a batch: a line of the tasks file, or an item of runBatch's tasks. The fields are
 * the library's option names for what can differ between tasks; the rest is the batch's.
 * @example { "id": "fix-17", "prompt": "Fix the failing test in src/a.ts", "cwd": "repos/a", "maxTurns": 20, "allow": ["bash(npm test*)"] }
 */
export interface BatchTask {
  /** Names the task in its result; default its line number (its position from 1 in runBatch). A second run skips ids already in `--out`. */
  id?: string | number;
  prompt: string;
  /** The workspace, relative to the batch's (`--cwd`, else the current folder). */
  cwd?: string;
  model?: string;
  maxTurns?: number;
  maxToolCalls?: number;
  timeoutMs?: number;
  permissionMode?: PermissionMode;
  /** Rules added to the batch's (`--allow`, `--deny`, the settings files): a deny of the batch still stands. */
  allow?: string[];
  deny?: string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  maxThinkingTokens?: number;
}

const FIELDS = [
  'id',
  'prompt',
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
] as const satisfies ReadonlyArray<keyof BatchTask>;

/**
 * Checks one task (a parsed line, or an item given in code); a bad one is a UsageError naming the
 * field, which the batch turns into that task's result. `where` names it: `line 3`.
 * @example checkTask({ prompt: 'hi', maxTurns: 3 }, 'line 1').maxTurns // 3
 */
export function checkTask(value: unknown, where: string): BatchTask {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`${where}: a task is a JSON object with a "prompt"`);
  const task = value as Record<string, unknown>;
  const unknown = Object.keys(task).filter((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0)
    throw new UsageError(`${where}: unknown field ${unknown.map((k) => `"${k}"`).join(', ')} (fields: ${FIELDS.join(', ')})`);
  if (typeof task.prompt !== 'string' || task.prompt.trim() === '') throw new UsageError(`${where}: "prompt" must be a non-empty string`);
  if (task.id !== undefined && typeof task.id !== 'string' && !Number.isFinite(task.id))
    throw new UsageError(`${where}: "id" must be a string or a number`);
  for (const key of ['cwd', 'model', 'systemPrompt', 'appendSystemPrompt'] as const) {
    if (task[key] !== undefined && typeof task[key] !== 'string') throw new UsageError(`${where}: "${key}" must be a string`);
  }
  for (const key of ['maxTurns', 'maxToolCalls', 'timeoutMs'] as const) {
    const n = task[key];
    if (n !== undefined && (!Number.isSafeInteger(n) || (n as number) < 1))
      throw new UsageError(`${where}: "${key}" must be a whole number of at least 1`);
  }
  const thinking = task.maxThinkingTokens;
  if (thinking !== undefined && (!Number.isSafeInteger(thinking) || (thinking as number) < 0)) {
    throw new UsageError(`${where}: "maxThinkingTokens" must be a whole number, 0 for off`);
  }
  if (task.permissionMode !== undefined && !(PERMISSION_MODES as readonly unknown[]).includes(task.permissionMode)) {
    throw new UsageError(`${where}: "permissionMode" must be one of: ${PERMISSION_MODES.join(', ')}`);
  }
  for (const key of ['allow', 'deny'] as const) {
    const rules = task[key];
    if (rules !== undefined && (!Array.isArray(rules) || rules.some((rule) => typeof rule !== 'string'))) {
      throw new UsageError(`${where}: "${key}" must be an array of rules, e.g. ["bash(npm test*)"]`);
    }
  }
  return task as unknown as BatchTask;
}

/** The task's id as its result carries it and `--out` is searched for. */
export function taskKey(id: string | number): string {
  return String(id);
}

/**
 * The RunSpec of one task: the batch's, with what the task changes. Each task is a new session.
 * @example taskSpec(batchSpec, { prompt: 'hi', maxTurns: 3 }).limits.maxTurns // 3
 */
export function taskSpec(batch: RunSpec, task: BatchTask): RunSpec {
  const thinking = task.maxThinkingTokens;
  return {
    ...batch,
    prompt: task.prompt,
    cwd: task.cwd === undefined ? batch.cwd : path.resolve(batch.cwd ?? '.', task.cwd),
    model: task.model ?? batch.model,
    limits: {
      maxTurns: task.maxTurns ?? batch.limits.maxTurns,
      maxToolCalls: task.maxToolCalls ?? batch.limits.maxToolCalls,
      timeoutMs: task.timeoutMs ?? batch.limits.timeoutMs,
    },
    permissionMode: task.permissionMode ?? batch.permissionMode,
    allow: [...(batch.allow ?? []), ...(task.allow ?? [])],
    deny: [...(batch.deny ?? []), ...(task.deny ?? [])],
    systemPrompt: task.systemPrompt ?? batch.systemPrompt,
    appendSystemPrompt: task.appendSystemPrompt ?? batch.appendSystemPrompt,
    maxThinkingTokens: thinking === undefined ? batch.maxThinkingTokens : String(thinking),
    session: { continue: false },
    inspectPort: null,
  };
}
