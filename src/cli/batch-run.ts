import { readFileSync } from 'node:fs';
import { finishedIds, openResults, streamResults } from '../batch/results-file.js';
import { progressDisplay } from '../batch/progress.js';
import { runTasks, type BatchItem, type BatchProgress } from '../batch/run-batch.js';
import { createRequestPacer } from '../model/request-pacer.js';
import { withholdAgentCredentials } from '../run/agent-credentials.js';
import { pacedApiModel } from '../run/model-factory.js';
import { parsePositiveInt } from '../run/parse-options.js';
import { buildRunConfig } from '../run/run-config.js';
import { runSpecOfFlags } from '../run/run-flags.js';
import { installAbortSignals } from '../run/signals.js';
import type { RunFlags } from '../run/add-run-flags.js';
import { tagThisRun } from '../system/process-group.js';
import { UsageError } from './exit-codes.js';

export type BatchFlags = RunFlags & { concurrency?: string; out?: string };

/** Ctrl-C: the batch stopped, the results of the tasks that finished are kept. */
const INTERRUPTED_EXIT = 130;

/**
 * `xagent batch`: reads the tasks, skips the ids `--out` already has, runs the rest `--concurrency`
 * at a time and appends each result as its task ends. Exit 0 when every task ended with
 * `final_answer`, 1 when some did not (their lines say why), 130 when stopped, 2 for bad flags.
 */
export async function runBatchCommand(file: string, raw: BatchFlags): Promise<number> {
  for (const [flag, given] of [
    ['--resume', raw.resume],
    ['--continue', raw.continue],
    ['--fork-session', raw.forkSession],
  ] as const) {
    if (given) throw new UsageError(`batch: ${flag} does not apply, each task is a new session`);
  }
  if (raw.inspect !== undefined)
    throw new UsageError('batch: --inspect does not apply (xagent inspect <session> opens any task afterwards)');
  const concurrency = raw.concurrency === undefined ? 10 : parsePositiveInt(raw.concurrency, '--concurrency');
  const items = readItems(file);
  // Taken before the key is withheld from what the tasks start: each task's model client reads it here.
  const env = { ...process.env };
  const spec = runSpecOfFlags(raw, [], env);
  const createModel = pacedApiModel(createRequestPacer({ maxInFlight: concurrency }));
  // Bad flags or settings are the batch's to fix, before any task: exit 2 once, not a failure per task.
  buildRunConfig({ ...spec, prompt: 'batch' }, env, createModel);
  withholdAgentCredentials(process.env);
  tagThisRun();

  const skip = raw.out ? finishedIds(raw.out) : new Set<string>();
  const out = raw.out ? openResults(raw.out) : streamResults((line) => process.stdout.write(line));
  const stop = new AbortController();
  const uninstall = installAbortSignals({ onAbort: () => stop.abort(), stderr: process.stderr });
  const display = progressDisplay(process.stderr);
  let progress: BatchProgress = { done: 0, failed: 0, running: 0, skipped: 0, total: items.length };
  let failed = 0;
  let done = 0;
  const started = Date.now();
  try {
    for await (const result of runTasks({
      items,
      concurrency,
      skip,
      setup: { spec, env, createModel, stderr: process.stderr },
      signal: stop.signal,
      onProgress: (now) => {
        progress = now;
        display.update(now);
      },
      where: (line) => `${file === '-' ? 'stdin' : file} line ${line}`,
    })) {
      out.write(result);
      done++;
      if (result.reason !== 'final_answer') failed++;
    }
  } finally {
    display.end();
    out.close();
    uninstall();
  }
  const skipped = progress.skipped > 0 ? `, ${progress.skipped} skipped (in ${raw.out} already)` : '';
  process.stderr.write(
    `xagent batch: ${done} task(s) ended, ${failed} not with final_answer${skipped}, in ${Math.round((Date.now() - started) / 1000)}s` +
      `${raw.out ? `; results in ${raw.out}` : ''}${stop.signal.aborted ? '; stopped: run the same command again to finish the rest' : ''}\n`,
  );
  if (stop.signal.aborted) return INTERRUPTED_EXIT;
  return failed === 0 ? 0 : 1;
}

/** The tasks file's lines as items: blank lines are left out, a line that is not JSON is a problem of its own. */
function readItems(file: string): BatchItem[] {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`batch: cannot read the tasks file ${file}: ${(error as Error).message}`);
  }
  const items: BatchItem[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      items.push({ task: JSON.parse(line) as unknown, line: index + 1 });
    } catch (error) {
      items.push({ problem: `not JSON (${(error as Error).message})`, line: index + 1 });
    }
  });
  return items;
}
