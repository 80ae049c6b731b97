/**
 * Where the engine's effects run: a model round, a compaction's summary request, a tool call.
 * Without a journal they simply run. A durable runner (src/restate/) keeps each finished step's
 * outcome, so that a task started again after its worker died gets the outcome back instead of
 * asking the model or running the tool a second time.
 */
export interface StepJournal {
  /**
   * Runs `effect`, or gives back what it gave (or threw) when an earlier attempt of the task
   * finished it. `name` is stable across attempts (`model 3`, `tool toolu_01`). `onRerun` is called
   * just before `effect` when an earlier attempt started this step and died before it finished:
   * the effect then runs a second time, and the engine says so in the trace.
   */
  step<T>(name: string, effect: () => Promise<T>, onRerun: () => void): Promise<T>;
}

/** The journal of a task that runs once, in this process: every step simply runs. */
export const immediateJournal: StepJournal = { step: (_name, effect) => effect() };
