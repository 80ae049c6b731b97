// What a state means, read from its record's tags (machines/state-tags.ts names them): the page never
// compares state names, so the chart's states can be renamed or split without it.

/** @example hasTag(record, 'person') // true while the task waits for the person */
export const hasTag = (r, tag) => r?.kind === 'state' && Array.isArray(r.tags) && r.tags.includes(tag);
