/**
 * A task's limits when nobody says otherwise: `-p`'s flag defaults, query()'s and the inspector's.
 * The public contract (shared/CONTRACT.md, fourth round) pins these for `-p`: generous enough that
 * a CI script written for Claude Code (which has none) runs unchanged, yet a runaway task ends.
 * The settings key `limits` and the flags change them; the interactive UI has none (below).
 */
export const DEFAULT_LIMITS = { maxTurns: 100, maxToolCalls: 500, timeoutMs: 30 * 60_000 } as const;

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
