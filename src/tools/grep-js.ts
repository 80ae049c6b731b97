import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { compileGrepGlob, MAX_COLLECTED_CHARS, type GrepEngine, type GrepOutcome } from './grep-engine.js';
import { grepWorkerMain, type GrepWorkerInput, type GrepWorkerOutput } from './grep-worker-body.js';
import { walk } from './walk.js';

/**
 * How long one search may run before it is stopped: JavaScript's regular expressions backtrack,
 * and a pattern like `(a+)+$` on a long line would otherwise run for ages.
 */
export const GREP_JS_TIME_LIMIT_MS = 30_000;

/** Longest line searched: past this a JavaScript string (at most ~512 M characters) gets close to its limit. */
const MAX_LINE_CHARS = 64 << 20;

/** The worker's source: its body from grep-worker-body.ts, given Node's require. */
const WORKER_SOURCE = `(${grepWorkerMain.toString()})(require);`;

/**
 * The JavaScript grep, used when ripgrep is not on the PATH. It follows ripgrep's rules as the
 * tool runs it: hidden files searched, ignore files not read, symlinks not followed, files with a
 * NUL byte skipped as binary, `-g` glob semantics. The matching runs in a worker thread, so a
 * backtracking pattern never blocks the process: Ctrl-C, --timeout and the time limit terminate
 * the worker, which stops even inside one regular-expression call.
 * @example await grepJs({ pattern: 'TODO', ignoreCase: false, root: '/repo', file: false, skipDirs: ['.git'], signal })
 */
export const grepJs: GrepEngine = async (query) => {
  try {
    new RegExp(query.pattern, query.ignoreCase ? 'i' : '');
  } catch (error) {
    return { kind: 'invalid-pattern', message: (error as Error).message };
  }
  const files: Array<{ absolute: string; relative: string }> = [];
  if (query.file) {
    files.push({ absolute: query.root, relative: path.basename(query.root) });
  } else {
    const glob = query.glob === undefined ? undefined : compileGrepGlob(query.glob);
    const enterDir = glob?.negated ? (relative: string) => !glob.matches(relative) : undefined;
    for await (const entry of walk(query.root, { skipDirs: query.skipDirs, enterDir, signal: query.signal })) {
      if (entry.kind !== 'file') continue;
      if (glob && glob.matches(entry.relative) === glob.negated) continue;
      files.push({ absolute: entry.absolute, relative: entry.relative });
    }
  }
  query.signal.throwIfAborted();
  const input: GrepWorkerInput = {
    pattern: query.pattern,
    ignoreCase: query.ignoreCase,
    files,
    maxCollectedChars: MAX_COLLECTED_CHARS,
    maxLineChars: MAX_LINE_CHARS,
  };
  return runWorker(input, query.signal, GREP_JS_TIME_LIMIT_MS);
};

/**
 * Runs the search in a worker; terminates it on abort (rejecting with the signal's reason, as the
 * ripgrep engine does) or at the time limit (an error outcome the model can act on).
 */
export function runWorker(input: GrepWorkerInput, signal: AbortSignal, timeLimitMs: number): Promise<GrepOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: input });
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    const onAbort = () => finish(() => reject(signal.reason));
    const timer = setTimeout(
      () =>
        finish(() =>
          resolve({
            kind: 'too-slow',
            message:
              `the search took longer than ${timeLimitMs / 1000} s and was stopped; a pattern with nested repetition ` +
              '(like `(a+)+`) backtracks on long lines: simplify it, or narrow `path` or `glob`',
          }),
        ),
      timeLimitMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (output: GrepWorkerOutput) =>
      finish(() => resolve({ kind: 'matches', matches: output.matches, truncated: output.truncated, longLines: output.longLines })),
    );
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', (code) => finish(() => reject(new Error(`the grep worker stopped (exit ${code})`))));
  });
}
