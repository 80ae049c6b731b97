import { Writable } from 'node:stream';
import { faultOf } from '../errors/xagent-error.js';
import { claudeCodeResultFold, type ResultWithClaudeCodeFields } from '../run/claude-result.js';
import { prepareRun } from '../run/prepare-run.js';
import { runPriceFields, type PriceFields } from '../run/price-fields.js';
import { buildRunConfig, policyFor, type ModelFactory } from '../run/run-config.js';
import type { RunSpec } from '../run/run-spec.js';
import { settleTrust } from '../run/trust-gate.js';
import { whenDescriptorsFree } from '../system/descriptors.js';
import { yieldTurn } from '../system/fair-turns.js';
import type { PermissionPrompt } from '../permissions/types.js';
import { taskSpec, type BatchTask } from './task-line.js';

/** A task's line in the results: the `-p --output-format json` object, plus the task's `id`. */
export type BatchResult = { id: string | number } & ((ResultWithClaudeCodeFields & Partial<PriceFields>) | TaskNotRun);

/**
 * A task that could not start (a bad line, an untrusted project, a folder that does not exist):
 * the same fields, with `reason` `usage_error` (the task's or the setup's to fix; `xagent -p` would
 * exit 2) or `internal_error` (a bug), and the message in `text`, `result` and `error`.
 */
export interface TaskNotRun {
  type: 'result';
  subtype: 'error_during_execution';
  reason: 'usage_error' | 'internal_error';
  is_error: true;
  text: string;
  result: string;
  error: { code: string; message: string };
  session_id: null;
  turns: 0;
  num_turns: 0;
  tool_calls: 0;
  usage: { input_tokens: 0; output_tokens: 0 };
  total_cost_usd: 0;
  duration_ms: number;
  trace_path: null;
  permission_denials: [];
}

/** What every task of a batch shares. */
export interface BatchSetup {
  /** The batch's own spec (flags or options); each task changes what its line says. */
  spec: RunSpec;
  /** The environment as it was before the API key was withheld from children. */
  env: NodeJS.ProcessEnv;
  createModel: ModelFactory;
  /** Session warnings; the batch's progress line is elsewhere. */
  stderr: NodeJS.WritableStream;
  /** Answers what would ask a person (the library's canUseTool); absent: such calls are refused, as in -p. */
  ask?: PermissionPrompt;
}

const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * Runs one task of a batch as `xagent -p --output-format json` would, in this process, and gives
 * its result line. Never throws: a task that cannot start is a TaskNotRun result. `signal` stops it
 * (its result is then `user_abort`).
 * @example const line = await runBatchTask({ prompt: 'hi' }, 7, setup, signal); // { id: 7, type: 'result', reason: 'final_answer', ... }
 */
export async function runBatchTask(task: BatchTask, id: string | number, setup: BatchSetup, signal: AbortSignal): Promise<BatchResult> {
  const started = Date.now();
  // Many tasks' synchronous setups take turns (fair-turns.ts): starting many at once is no long stall.
  await yieldTurn();
  try {
    // Nobody is there to say yes to a project's hooks or servers: an untrusted one is refused, as -p refuses it.
    const config = await settleTrust(buildRunConfig(taskSpec(setup.spec, task), setup.env, setup.createModel), {
      terminal: false,
      input: process.stdin,
      output: quiet(),
    });
    const run = await whenDescriptorsFree(() => prepareRun(config, { stderr: setup.stderr, env: setup.env }));
    try {
      const fold = claudeCodeResultFold();
      const result = await run.runTask({
        prompt: task.prompt,
        // Without `ask`, nobody answers: a call that would ask is refused, as in -p without a terminal.
        permissions: policyFor(config, setup.ask),
        signal,
        renderer: { onEvent: fold.observe, finish: () => undefined },
      });
      return { id, ...fold.complete(result), ...runPriceFields(config) };
    } finally {
      await run.close();
    }
  } catch (error) {
    return notRun(id, error, Date.now() - started);
  }
}

/** The result of a task that never ran, from what stopped it. */
export function notRun(id: string | number, error: unknown, durationMs = 0): BatchResult {
  const fault = faultOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return {
    id,
    type: 'result',
    subtype: 'error_during_execution',
    reason: fault === 'internal' ? 'internal_error' : 'usage_error',
    is_error: true,
    text: message,
    result: message,
    error: { code: fault === 'internal' ? ((error as NodeJS.ErrnoException)?.code ?? 'internal') : fault, message },
    session_id: null,
    turns: 0,
    num_turns: 0,
    tool_calls: 0,
    usage: { input_tokens: 0, output_tokens: 0 },
    total_cost_usd: 0,
    duration_ms: durationMs,
    trace_path: null,
    permission_denials: [],
  };
}
