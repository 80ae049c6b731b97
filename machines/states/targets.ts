/**
 * Targets across the chart's top-level states. A nested state names another top-level state by
 * its id (`#queryEngine.<path>`); these keep the spelling in one place.
 */
export const MACHINE_ID = 'queryEngine';

export const at = (path: string) => `#${MACHINE_ID}.${path}` as const;

export const DONE = at('done');

/** The params of a transition's actions that use the invoked actor's answer. */
export const outcomeOf = ({ event }: { event: { output: unknown } }) => ({ outcome: event.output as never });
