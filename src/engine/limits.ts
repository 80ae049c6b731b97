/**
 * A task's limits when nobody says otherwise: `-p`'s flag defaults, query()'s and the inspector's.
 * Sized for CI: a real fix (read, edit, run the tests, fix again) takes 20-40 tool calls and a few
 * minutes; the limits stop a task that loops, not one that works.
 */
export const DEFAULT_LIMITS = { maxTurns: 50, maxToolCalls: 200, timeoutMs: 600_000 } as const;

/**
 * The interactive UI's defaults: no limit. The person watches and stops a task with Esc; a limit
 * applies only when a flag or /config sets it. Infinity holds in every guard (`turn >= maxTurns`
 * never does) and is written as null in the trace's task_start.
 */
export const INTERACTIVE_LIMITS: TaskLimits = {
  maxTurns: Number.POSITIVE_INFINITY,
  maxToolCalls: Number.POSITIVE_INFINITY,
  timeoutMs: Number.POSITIVE_INFINITY,
};

export interface TaskLimits {
  maxTurns: number;
  maxToolCalls: number;
  timeoutMs: number;
}
