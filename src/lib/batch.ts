import { finishedIds, openResults } from '../batch/results-file.js';
import { runTasks, type BatchProgress } from '../batch/run-batch.js';
import type { BatchResult } from '../batch/run-task.js';
import type { BatchTask } from '../batch/task-line.js';
import { UsageError } from '../errors/xagent-error.js';
import { createRequestPacer } from '../model/request-pacer.js';
import { pacedApiModel } from '../run/model-factory.js';
import { canUseToolPrompt } from './can-use-tool.js';
import { toRunSpec, type QueryOptions } from './options.js';

/** runBatch's options: query()'s for every task (a task's own fields win), and how the batch runs. */
export interface BatchOptions extends Omit<QueryOptions, 'session' | 'resume' | 'forkSession' | 'at' | 'inspect' | 'onInspectorUrl'> {
  /** Tasks running at once; default 10. */
  concurrency?: number;
  /** A results file (JSONL): each result is appended as its task ends, and ids already in it are not run again. */
  out?: string;
  /** Hears where the batch stands after each start and end. */
  onProgress?: (progress: BatchProgress) => void;
}

export type { BatchProgress, BatchResult, BatchTask };

/**
 * Runs many tasks in this process, `concurrency` at a time, and yields each one's result as it
 * ends: the `-p --output-format json` object plus the task's `id` (default: its position from 1).
 * Every task gets a result, a bad one too (`reason: "usage_error"`); a 429 or 529 from the API
 * slows the whole batch (one shared backoff and retry budget) instead of each task retrying on its
 * own. Aborting `signal`, or leaving the loop, stops the running tasks; they give no result, so a
 * second run with the same `out` runs them again and skips the ones that finished.
 * Throws a UsageError from the first `next()`, before any task, for a bad option.
 * @example
 * const tasks = files.map((file) => ({ id: file, prompt: `Add a docstring to ${file}`, allow: ['edit_file'] }));
 * for await (const result of runBatch(tasks, { cwd: repo, concurrency: 20, out: 'results.jsonl' })) {
 *   console.log(result.id, result.reason);
 * }
 */
export async function* runBatch(
  tasks: Iterable<BatchTask> | AsyncIterable<BatchTask>,
  options: BatchOptions = {},
): AsyncGenerator<BatchResult> {
  const { concurrency = 10, out: outFile, onProgress, signal, canUseTool, env: givenEnv, stderr: givenStderr, ...taskOptions } = options;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new UsageError(`concurrency must be a whole number of at least 1 (got ${String(concurrency)})`);
  const spec = toRunSpec('batch', { ...taskOptions, ...(canUseTool ? { canUseTool } : {}) });
  const items = [];
  for await (const task of tasks) items.push({ task: task as unknown });
  const env = givenEnv ?? process.env;
  const skip = outFile ? finishedIds(outFile) : new Set<string>();
  const out = outFile ? openResults(outFile) : null;
  try {
    for await (const result of runTasks({
      items,
      concurrency,
      skip,
      setup: {
        spec,
        env,
        createModel: pacedApiModel(createRequestPacer({ maxInFlight: concurrency })),
        stderr: givenStderr === undefined ? process.stderr : (givenStderr ?? quiet),
        ...(canUseTool ? { ask: canUseToolPrompt(canUseTool) } : {}),
      },
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress } : {}),
      where: (position) => `task ${position}`,
    })) {
      out?.write(result);
      yield result;
    }
  } finally {
    out?.close();
  }
}

const quiet: NodeJS.WritableStream = {
  write: () => true,
} as unknown as NodeJS.WritableStream;
