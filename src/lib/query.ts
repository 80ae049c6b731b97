import { Writable } from 'node:stream';
import { AsyncQueue } from '../engine/async-queue.js';
import type { QueryResult } from '../engine/events.js';
import { createApiModel } from '../run/model-factory.js';
import { prepareRun } from '../run/prepare-run.js';
import { buildRunConfig, policyFor } from '../run/run-config.js';
import { streamJsonEvent, type StreamJsonEvent } from '../run/stream-json.js';
import { runPriceFields } from '../run/price-fields.js';
import { claudeCodeResultFold } from '../run/claude-result.js';
import { canUseToolPrompt } from './can-use-tool.js';
import { toRunSpec, type QueryOptions } from './options.js';
import { whenDescriptorsFree } from '../system/descriptors.js';
import { yieldTurn } from '../system/fair-turns.js';

const discard = () =>
  new Writable({
    write: (_chunk, _encoding, done) => done(),
  });

/**
 * Runs one task in your process, through the same run setup as `xagent -p` (settings, session,
 * inspector, permissions), and yields the events `--output-format stream-json` prints, the
 * `result` object last (it is also the generator's return value).
 *
 * Throws a UsageError from the first `next()`, before any request, for a bad option, a custom tool
 * named like a built-in, a broken settings file, an unknown session or a missing ANTHROPIC_API_KEY.
 * Breaking out of the loop early aborts the task and waits for it to stop.
 * @example
 * for await (const event of query('How many words are in README.md?', { tools: [wordCount] })) {
 *   if (event.type === 'text_delta') process.stdout.write(event.text);
 *   if (event.type === 'result') process.exitCode = event.is_error ? 1 : 0;
 * }
 */
export async function* query(prompt: string, options: QueryOptions = {}): AsyncGenerator<StreamJsonEvent, QueryResult> {
  // A task's setup (settings, session, model client) is a few ms of synchronous work: a thousand
  // tasks started in one loop take turns (fair-turns.ts), never one long stall.
  await yieldTurn();
  const spec = toRunSpec(prompt, options);
  const env = options.env ?? process.env;
  const config = buildRunConfig(spec, env, createApiModel);
  const stderr = options.stderr === undefined ? process.stderr : (options.stderr ?? discard());
  // Out of descriptors (a thousand tasks in one process), the session waits for some instead of failing.
  const run = await whenDescriptorsFree(() => prepareRun(config, { stderr, env }));
  const controller = new AbortController();
  const abort = () => controller.abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  if (options.signal?.aborted) abort();
  const events = new AsyncQueue<StreamJsonEvent>();
  // The result event carries Claude Code's fields too, as the CLI's stream-json does.
  const fold = claudeCodeResultFold();
  const price = runPriceFields(config);
  let task: Promise<QueryResult> | undefined;
  let finished = false;
  try {
    if (run.inspector) options.onInspectorUrl?.(run.inspector.server.url);
    task = run.runTask({
      prompt,
      permissions: policyFor(config, canUseToolPrompt(options.canUseTool)),
      signal: controller.signal,
      renderer: {
        onEvent: (event) => {
          fold.observe(event);
          events.push(streamJsonEvent(event));
        },
        finish: (result) => {
          events.push(streamJsonEvent({ ...fold.complete(result), ...price }));
          events.close();
        },
      },
    });
    // Ends the loop below if the run fails outside the engine; the error is thrown by `await task`.
    task.catch(() => events.close());
    for await (const event of events) yield event;
    const result = await task;
    finished = true;
    return result;
  } finally {
    // The caller stopped early (break, return, a throw in its loop): stop the task, keep its transcript valid.
    if (!finished) abort();
    await task?.catch(() => undefined);
    options.signal?.removeEventListener('abort', abort);
    await run.close();
  }
}
