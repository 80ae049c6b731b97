/** Time as the engine reads it; tests inject their own so timeouts are reachable by generated paths. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
