/**
 * The bound on path generation. The state space is finite only because the chart's limits stop it
 * (turns, tool calls, the window); a limit taken away makes xstate/graph explore for ever. So
 * generation counts the states it expands and stops at a bound far above today's state space (about
 * 1,300 states from the main start), naming the fields of the routing view that kept growing.
 */

/** About eight times today's state space: room to grow, and a runaway stops in seconds, well under 1 GB. */
export const MAX_STATES = 10_000;

export class UnboundedStateSpace extends Error {
  override readonly name = 'UnboundedStateSpace';
  constructor(
    readonly states: number,
    readonly growing: string[],
  ) {
    super(
      `path generation passed ${states} states without running out: ${
        growing.length > 0 ? `${growing.join(', ')} kept growing` : 'no counted field grew'
      }. A bound is missing from the chart or from src/paths/engine-model.ts (the limits a snapshot is routed by).`,
    );
  }
}

/** Every number in a view, and every array's length, by its path (`turn`, `queue.length`). */
export function measures(value: unknown, prefix = '', out = new Map<string, number>()): Map<string, number> {
  if (typeof value === 'number' && Number.isFinite(value)) out.set(prefix, value);
  else if (Array.isArray(value)) out.set(`${prefix}.length`, value.length);
  else if (value !== null && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) measures(inner, prefix ? `${prefix}.${key}` : key, out);
  return out;
}

/**
 * Watches the states a traversal expands: past `max`, throws naming the fields whose largest value
 * rose in the second half of the traversal (the ones a limit should have stopped).
 * @example const bound = stateSpaceBound(); events: (s) => { bound.see(routingView(s)); return eventsFor(s) }
 */
export function stateSpaceBound(max = MAX_STATES): { see(view: unknown): void } {
  let seen = 0;
  const largest = new Map<string, number>();
  let atHalf = new Map<string, number>();
  return {
    see(view) {
      seen++;
      for (const [field, value] of measures(view)) if (value > (largest.get(field) ?? Number.NEGATIVE_INFINITY)) largest.set(field, value);
      if (seen === Math.floor(max / 2)) atHalf = new Map(largest);
      if (seen <= max) return;
      const growing = [...largest]
        .filter(([field, value]) => value > (atHalf.get(field) ?? Number.NEGATIVE_INFINITY))
        .map(([field, value]) => `${field} (${atHalf.get(field) ?? 0} → ${value})`);
      throw new UnboundedStateSpace(seen - 1, growing);
    },
  };
}
