/** A task's limits when nobody says otherwise: the CLI's flag defaults, query()'s and the inspector's. */
export const DEFAULT_LIMITS = { maxTurns: 8, maxToolCalls: 12, timeoutMs: 120_000 } as const;

export interface TaskLimits {
  maxTurns: number;
  maxToolCalls: number;
  timeoutMs: number;
}
