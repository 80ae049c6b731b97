import { randomBytes } from 'node:crypto';
import * as restate from '@restatedev/restate-sdk';
import { claudeCodeResultFold } from '../run/claude-result.js';
import { createApiModel } from '../run/model-factory.js';
import { prepareRun } from '../run/prepare-run.js';
import { runPriceFields } from '../run/price-fields.js';
import { buildRunConfig, policyFor, type RunConfig } from '../run/run-config.js';
import { settleTrust } from '../run/trust-gate.js';
import { UsageError } from '../errors/xagent-error.js';
import { SessionError } from '../sessions/errors.js';
import { sessionDir } from '../sessions/layout.js';
import { setAsideEarlierAttempt } from './attempts.js';
import { durablePrompt } from './durable-prompt.js';
import { restateJournal } from './journal.js';
import { scriptedByRound } from './scripted-rounds.js';
import { statusKeeper } from './status-keeper.js';
import { runSpecOf, type TaskSpec } from './task-spec.js';
import type { TaskOutput } from './task-status.js';

/** What a worker gives every task it runs. */
export interface WorkerServices {
  /** The worker's environment as it started, the API key still in it (process.env no longer has it). */
  env: NodeJS.ProcessEnv;
  /** Warnings of the runs (settings, sessions) go here, one line each. */
  stderr: NodeJS.WritableStream;
}

/**
 * One attempt of a task, inside the workflow's `run` handler: the same run setup as `-p` (the
 * worker's settings, a session named by the task id, the json result), with the model rounds and
 * tool calls journaled and `ask` answered through a durable promise. A task that cannot start (a
 * missing workspace, untrusted project files, a bad setting) fails for good with the reason: a
 * retry would not change it.
 */
export async function runDurableTask(ctx: restate.WorkflowContext, spec: TaskSpec, services: WorkerServices): Promise<TaskOutput> {
  const taskId = ctx.key;
  // An earlier attempt in this process (suspended while it waited) may still be winding down: its session closes first.
  const earlier = attempts.get(taskId);
  let end = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  attempts.set(taskId, ended);
  try {
    await earlier;
    return await runAttempt(ctx, taskId, spec, services);
  } finally {
    end();
    if (attempts.get(taskId) === ended) attempts.delete(taskId);
  }
}

/** The attempts of tasks running in this worker, by task id: each ends before the next of the same task begins. */
const attempts = new Map<string, Promise<void>>();

async function runAttempt(ctx: restate.WorkflowContext, taskId: string, spec: TaskSpec, services: WorkerServices): Promise<TaskOutput> {
  const attemptEnded = ctx.request().attemptCompletedSignal;
  // Chosen once and journaled: every attempt's inspector answers at the address the status gives.
  const inspectorToken = spec.inspectPort ? await ctx.run('inspector token', () => randomBytes(24).toString('base64url')) : undefined;
  const status = statusKeeper(ctx, attemptEnded, {
    state: 'starting',
    prompt: spec.prompt.slice(0, 200),
    workspace: spec.cwd,
    turn: 0,
    tool_calls: 0,
    waiting: [],
    ...(inspectorToken ? { inspector: `http://127.0.0.1:${spec.inspectPort}/?token=${inspectorToken}` } : {}),
  });
  let config: RunConfig;
  try {
    // A copy: buildRunConfig's callers may take the key out of the environment they pass.
    const built = buildRunConfig(runSpecOf(spec, taskId), { ...services.env }, createApiModel);
    config = await settleTrust(built, { terminal: false, input: process.stdin, output: services.stderr });
    if (spec.modelScript) config = { ...config, model: scriptedByRound(spec.modelScript) };
    setAsideEarlierAttempt(sessionDir(config.home, taskId));
  } catch (error) {
    if (error instanceof UsageError || error instanceof SessionError) {
      status.change({ state: 'done', reason: 'not_started', error: error.message });
      throw new restate.TerminalError(`task ${taskId} cannot run on this worker: ${error.message}`, { errorCode: 400 });
    }
    throw error;
  }
  const io = { stderr: services.stderr, ...(inspectorToken ? { inspectorToken } : {}) };
  const run = await prepareRun(config, io).catch((error: unknown) => {
    if (config.inspectPort === null) throw error;
    // The inspector's port is taken (another task asked for it): the task runs without it.
    services.stderr.write(`xagent: task ${taskId}: no inspector on port ${config.inspectPort}: ${(error as Error).message}\n`);
    return prepareRun({ ...config, inspectPort: null }, io);
  });
  const controller = new AbortController();
  // The attempt ended under the task (suspended while it waits, or the server went away): stop this copy, the next attempt replays.
  const stop = () => controller.abort();
  attemptEnded.addEventListener('abort', stop, { once: true });
  const fold = claudeCodeResultFold();
  try {
    const result = await run.runTask({
      prompt: spec.prompt,
      permissions: policyFor(config, durablePrompt(ctx, status, config.workspace)),
      signal: controller.signal,
      journal: restateJournal(ctx),
      observe: (event) => status.follow(event),
      renderer: { onEvent: (event) => fold.observe(event), finish: () => undefined },
    });
    if (attemptEnded.aborted) throw new Error(`task ${taskId}: this attempt ended; the next one replays it`);
    status.change({ state: 'done', reason: result.reason });
    return { ...fold.complete(result), ...runPriceFields(config) };
  } finally {
    attemptEnded.removeEventListener('abort', stop);
    await run.close();
  }
}
