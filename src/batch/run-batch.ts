import { AsyncQueue } from '../engine/async-queue.js';
import { UsageError } from '../errors/xagent-error.js';
import { notRun, runBatchTask, type BatchResult, type BatchSetup } from './run-task.js';
import { checkTask, taskKey } from './task-line.js';

/**
 * One item of a batch: a task as given (checked when its turn comes), or why its line could not be
 * read; `line` is its line in the tasks file (default: its position from 1), its id when it has none.
 */
export type BatchItem = ({ task: unknown } | { problem: string }) & { line?: number };

/** Where a batch stands, for a progress line. `total` counts the tasks this run will run (skipped ones left out). */
export interface BatchProgress {
  done: number;
  failed: number;
  running: number;
  skipped: number;
  total: number;
}

export interface BatchOptions {
  items: readonly BatchItem[];
  /** Tasks running at once (at least 1). */
  concurrency: number;
  /** Ids finished by an earlier run (its results file): not run again. */
  skip: ReadonlySet<string>;
  setup: BatchSetup;
  /** Stops the batch: no task starts any more, the running ones stop; their results are not given (they did not finish). */
  signal?: AbortSignal;
  onProgress?: (progress: BatchProgress) => void;
  /** How an item is named in messages: `line 3`. */
  where: (position: number) => string;
}

/**
 * Runs a batch's tasks, `concurrency` at a time, in one process, and yields each result as its
 * task ends (not in the file's order). Every task gets a result, a bad one too (TaskNotRun); a
 * task already in `skip` is not run. Ending the loop early stops the running tasks.
 * @example for await (const result of runTasks({ items, concurrency: 50, skip: new Set(), setup, where: (n) => `line ${n}` })) out.write(result);
 */
export async function* runTasks(options: BatchOptions): AsyncGenerator<BatchResult> {
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const results = new AsyncQueue<BatchResult>();
  const plan = planned(options);
  const progress: BatchProgress = { done: 0, failed: 0, running: 0, skipped: plan.skipped, total: plan.runs.length };
  const report = () => options.onProgress?.({ ...progress });
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  let slotFreed: (() => void) | null = null;

  const runAll = async () => {
    const running = new Set<Promise<void>>();
    for (const run of plan.runs) {
      if (stop.signal.aborted) break;
      while (running.size >= concurrency) await new Promise<void>((resolve) => (slotFreed = resolve));
      if (stop.signal.aborted) break;
      progress.running++;
      report();
      const one = run(stop.signal).then((result) => {
        progress.running--;
        running.delete(one);
        // A task stopped by the batch's own stop did not finish: no result, so the next run does it again.
        if (!(stop.signal.aborted && result.reason === 'user_abort')) {
          progress.done++;
          if (result.is_error) progress.failed++;
          results.push(result);
        }
        report();
        const freed = slotFreed;
        slotFreed = null;
        freed?.();
      });
      running.add(one);
    }
    await Promise.all(running);
    results.close();
  };
  report();
  const all = runAll();
  try {
    for await (const result of results) yield result;
  } finally {
    stop.abort();
    await all;
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The runs of a batch in order, with ids checked: the skipped ones left out, a repeated id or a bad task a result of its own. */
function planned(options: BatchOptions): { runs: Array<(signal: AbortSignal) => Promise<BatchResult>>; skipped: number } {
  const seen = new Set<string>();
  const runs: Array<(signal: AbortSignal) => Promise<BatchResult>> = [];
  let skipped = 0;
  options.items.forEach((item, index) => {
    const position = item.line ?? index + 1;
    const where = options.where(position);
    const given = 'task' in item ? (item.task as { id?: unknown } | null)?.id : undefined;
    const id = typeof given === 'string' || (typeof given === 'number' && Number.isFinite(given)) ? given : position;
    const key = taskKey(id);
    if (options.skip.has(key)) {
      skipped++;
      return;
    }
    if (seen.has(key)) {
      runs.push(async () =>
        notRun(id, new UsageError(`${where}: id ${JSON.stringify(id)} is used by an earlier task; ids must be unique`)),
      );
      return;
    }
    seen.add(key);
    if ('problem' in item) {
      runs.push(async () => notRun(id, new UsageError(`${where}: ${item.problem}`)));
      return;
    }
    runs.push(async (signal) => {
      try {
        return await runBatchTask(checkTask(item.task, where), id, options.setup, signal);
      } catch (error) {
        return notRun(id, error);
      }
    });
  });
  return { runs, skipped };
}
