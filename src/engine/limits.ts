/**
 * A task's limits when nobody says otherwise: `-p`'s flag defaults, query()'s and the inspector's.
 * The public contract (shared/CONTRACT.md) pins these for `-p`; CI scripts that need more say so
 * with the flags. The interactive UI has none (below).
 */
export const DEFAULT_LIMITS = { maxTurns: 8, maxToolCalls: 12, timeoutMs: 120_000 } as const;

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
