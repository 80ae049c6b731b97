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
import { forkSession } from '../rewind/fork.js';
import { sessionDir } from '../sessions/layout.js';
import { setAsideEarlierAttempt } from './attempts.js';
import { durablePrompt } from './durable-prompt.js';
import { restateJournal } from './journal.js';
import { scriptedByRound } from './scripted-rounds.js';
import { STATUS_KEY, statusKeeper } from './status-keeper.js';
import { specRefusal, type SpecOptIn } from './spec-gate.js';
import { runSpecOf, withDefaults, type TaskSpec } from './task-spec.js';
import { checkTaskSpec } from './task-spec-schema.js';
import { taskSettingsOf, withTaskSettings } from './task-settings.js';
import type { TaskOutput, TaskStatus } from './task-status.js';

/** What a worker gives every task it runs. */
export interface WorkerServices {
  /** The worker's environment as it started, the API key still in it (process.env no longer has it). */
  env: NodeJS.ProcessEnv;
  /** Warnings of the runs (settings, sessions) go here, one line each. */
  stderr: NodeJS.WritableStream;
  /** What a spec may turn on here (`--accept-from-spec`); nothing by default. */
  acceptFromSpec: ReadonlySet<SpecOptIn>;
}

/** The task's Restate state key holding its approval token's hash (the `answer` handler checks it). */
export const APPROVAL_TOKEN_KEY = 'approval token';

/**
 * One attempt of a task, inside the workflow's `run` handler: the same run setup as `-p` (the
 * worker's settings, a session named by the task id, the json result), with the model rounds and
 * tool calls journaled and `ask` answered through a durable promise. A task that cannot start (a
 * missing workspace, untrusted project files, a bad setting) fails for good with the reason: a
 * retry would not change it.
 */
export async function runDurableTask(ctx: restate.WorkflowContext, input: unknown, services: WorkerServices): Promise<TaskOutput> {
  const taskId = ctx.key;
  // Refused before anything runs, for good: a retry would refuse it again (and an exception here would be retried forever).
  const checked = checkTaskSpec(input);
  if (!checked.ok) return notStarted(ctx, `the task spec is not valid: ${checked.problem.message}`, { prompt: '', workspace: '' });
  const spec = withDefaults(checked.spec);
  const refusal = specRefusal(spec, services.acceptFromSpec);
  if (refusal) return notStarted(ctx, refusal, { prompt: spec.prompt.slice(0, 200), workspace: spec.cwd });
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

/** Ends a task that may not run here: its status says why, `xagent wait` gets the reason (exit 14), Restate does not retry it. */
function notStarted(ctx: restate.WorkflowContext, why: string, shown: { prompt: string; workspace: string }): never {
  const status: TaskStatus = { state: 'done', reason: 'not_started', error: why, turn: 0, tool_calls: 0, waiting: [], ...shown };
  ctx.set(STATUS_KEY, status);
  throw new restate.TerminalError(`task ${ctx.key} refused: ${why}`, { errorCode: 400 });
}

/** The attempts of tasks running in this worker, by task id: each ends before the next of the same task begins. */
const attempts = new Map<string, Promise<void>>();

async function runAttempt(ctx: restate.WorkflowContext, taskId: string, spec: TaskSpec, services: WorkerServices): Promise<TaskOutput> {
  const attemptEnded = ctx.request().attemptCompletedSignal;
  if (spec.approvalTokenSha256) ctx.set(APPROVAL_TOKEN_KEY, spec.approvalTokenSha256);
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
    // --resume: the conversation so far, copied into the task's own session (again on every attempt, from the same source).
    if (spec.resume) forkSession({ home: config.home, from: spec.resume, at: null, id: taskId });
    // The first attempt's rules, hooks and limits, journaled: every attempt on every worker decides as it did.
    const first = taskSettingsOf(config);
    config = withTaskSettings(config, await ctx.run('settings', () => first));
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
