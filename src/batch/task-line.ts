import path from 'node:path';
import { UsageError } from '../errors/xagent-error.js';
import type { RunSpec } from '../run/run-spec.js';
import { checkTaskOptions, TASK_OPTION_NAMES, taskSpecPart, type TaskOptions } from '../run/task-options.js';

/**
 * One task of a batch: a line of the tasks file, or an item of runBatch's tasks. Its fields are
 * the library's TaskOptions, for what can differ between tasks; the rest is the batch's. `cwd`
 * is relative to the batch's (`--cwd`, else the current folder); `allow` and `deny` add to the
 * batch's rules (`--allow`, `--deny`, the settings files): a deny of the batch still stands.
 * @example { "id": "fix-17", "prompt": "Fix the failing test in src/a.ts", "cwd": "repos/a", "maxTurns": 20, "allow": ["bash(npm test*)"] }
 */
export interface BatchTask extends TaskOptions {
  /** Names the task in its result; default its line number (its position from 1 in runBatch). A second run skips ids already in `--out`. */
  id?: string | number;
  prompt: string;
}

const FIELDS = ['id', 'prompt', ...TASK_OPTION_NAMES] as const satisfies ReadonlyArray<keyof BatchTask>;

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
  checkTaskOptions(task, `${where}: `);
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
  return {
    ...batch,
    ...taskSpecPart(task, batch),
    prompt: task.prompt,
    cwd: task.cwd === undefined ? batch.cwd : path.resolve(batch.cwd ?? '.', task.cwd),
    session: { continue: false },
    inspectPort: null,
  };
}
