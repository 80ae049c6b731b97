/**
 * What a state means to the people and programs that watch the chart, as XState tags: the
 * terminal, the timing strip, the renderers and the inspector read a state's tags (every state line
 * of the trace carries them), never its name, so a state can be renamed or split without them.
 */
export const TAG = {
  /** Waiting for the model's answer to a request of the loop. */
  model: 'model',
  /** Waiting for the model's summary of the conversation (also time spent on the model). */
  compaction: 'compaction',
  /** Tools running: one call, or a batch (subagents among them). */
  tool: 'tool',
  /** Waiting for the person's answer. */
  person: 'person',
  /** Waiting for hook commands. */
  hooks: 'hooks',
  /** The round's limits are checked on the way to a request: a new round begins. */
  limits: 'limits',
  /** A tool call is taken up: checked, then decided. */
  call: 'call',
  /** A call's error becomes its result. */
  callFailed: 'call_failed',
  /** The task has stopped (its reason is on the state line). */
  final: 'final',
} as const;

export type StateTag = (typeof TAG)[keyof typeof TAG];

/** Whether a state line (or any record with `tags`) carries a tag. @example hasTag(line, TAG.person) */
export function hasTag(record: { tags?: readonly string[] } | null | undefined, tag: StateTag): boolean {
  return record?.tags?.includes(tag) === true;
}
