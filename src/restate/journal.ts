import type * as restate from '@restatedev/restate-sdk';
import type { StepJournal } from '../engine/step-journal.js';

/** A step's outcome as Restate keeps it: a thrown error is data too, so the chart routes it as it would have. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErrorData };

interface ErrorData {
  name: string;
  message: string;
  /** The fields the chart reads off an error (a tool's `code`, a ModelError's `kind` and `status`). */
  code?: string;
  kind?: string;
  status?: number;
}

/**
 * The engine's steps as `ctx.run` entries of the task's Restate journal: a step an earlier attempt
 * finished is given back from the journal (the model is not asked again, the tool does not run
 * again). Restate journals a step's start before its end, so a step found started but not ended
 * is the one that was in flight when the worker died: it runs again, and `onRerun` marks it in the trace.
 * The step's own failures are kept as outcomes, never retried by Restate: the model client
 * already retries, and the chart decides what a failure means, as it does with `-p`.
 */
export function restateJournal(ctx: restate.WorkflowContext): StepJournal {
  // The SDK's own replay flag (what ctx.console uses). It only marks the trace; the journal does not branch on it.
  const internal = ctx as unknown as restate.internal.ContextInternal;
  return {
    async step<T>(name: string, effect: () => Promise<T>, onRerun: () => void): Promise<T> {
      const startedBefore = !internal.isProcessing();
      const outcome = await ctx.run<Outcome<T>>(name, async () => {
        if (startedBefore) onRerun();
        try {
          return { ok: true, value: await effect() };
        } catch (error) {
          return { ok: false, error: errorData(error) };
        }
      });
      if (outcome.ok) return outcome.value;
      throw errorFrom(outcome.error);
    },
  };
}

function errorData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields = error as Error & { code?: unknown; kind?: unknown; status?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    ...(typeof fields.kind === 'string' ? { kind: fields.kind } : {}),
    ...(typeof fields.status === 'number' ? { status: fields.status } : {}),
  };
}

function errorFrom(data: ErrorData): Error {
  const { name, message, ...fields } = data;
  return Object.assign(new Error(message), { name }, fields);
}
