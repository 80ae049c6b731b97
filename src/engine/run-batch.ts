import type { BatchOutcome } from '../../machines/batch-steps.js';
import type { ToolCall, ToolResult } from '../../machines/types.js';

/** Read-only calls of one response that run at once: enough for a wide search, few enough for the disk. */
export const BATCH_CONCURRENCY = 10;
/** Subagents of one response that run at once; the others wait for a free place. */
export const TASK_CONCURRENCY = 4;

/**
 * Runs the calls of a batch together and gives one outcome per call, in the calls' order (the
 * model's), whichever finishes first. A call that throws becomes its failure (its code kept, so the
 * chart can tell a failure the model can fix from a crash); nothing here throws. `limitOf` says how
 * many calls of the kind of `call` may run at once.
 * @example await runBatch(calls, (call) => runTool(call, signal), { limitOf: () => 10 })
 */
export async function runBatch(
  calls: readonly ToolCall[],
  run: (call: ToolCall) => Promise<ToolResult>,
  options: { limitOf: (call: ToolCall) => number },
): Promise<BatchOutcome[]> {
  const running = new Map<number, number>();
  const waiting: Array<() => void> = [];
  const place = async (limit: number) => {
    while ((running.get(limit) ?? 0) >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running.set(limit, (running.get(limit) ?? 0) + 1);
  };
  const free = (limit: number) => {
    running.set(limit, (running.get(limit) ?? 1) - 1);
    for (const wake of waiting.splice(0)) wake();
  };
  return Promise.all(
    calls.map(async (call): Promise<BatchOutcome> => {
      const limit = Math.max(1, options.limitOf(call));
      await place(limit);
      try {
        return { result: await run(call) };
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        return {
          failure: { ...(typeof code === 'string' ? { code } : {}), message: error instanceof Error ? error.message : String(error) },
        };
      } finally {
        free(limit);
      }
    }),
  );
}
