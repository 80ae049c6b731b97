import { createHash } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_LIMITS, type TaskLimits } from '../engine/limits.js';
import type { RunFlags } from '../run/add-run-flags.js';
import { type ParsedRunFlags, parseRunFlags } from '../run/parse-run-flags.js';
import type { RunSpec } from '../run/run-spec.js';
import { UsageError } from '../errors/xagent-error.js';

/**
 * A task as it travels from `xagent submit` to a worker: plain JSON (it is the durable
 * invocation's input, kept in Restate's log). The flags are checked where they are typed (a bad
 * value exits 2 before anything is sent); paths are made absolute there, since the worker cannot
 * know the submitter's working folder.
 */
export interface TaskSpec extends Omit<ParsedRunFlags, 'limits' | 'defaultLimits'> {
  /** Whole: the flags' limits over `-p`'s defaults, fixed at submit so every worker runs the same task. */
  limits: TaskLimits;
  prompt: string;
  /** The workspace, absolute: the worker runs the task there (shared storage, or the same checkout path on every worker). */
  cwd: string;
  /** --inspect <port>: the worker serves the live inspector of this task on 127.0.0.1:<port> of its machine. */
  inspectPort?: number;
  /** --approval-token: only an answer carrying this token approves or denies the task's calls (its SHA-256, hex). */
  approvalTokenSha256?: string;
  /** --resume <session>: the task continues this session (on the worker's disk), in a copy named by the task id. */
  resume?: string;
}

/** What `xagent submit` takes: the run flags, and the approval token. */
export type SubmitFlags = RunFlags & { approvalToken?: string };

/**
 * Checks the flags (the run flags of `-p`, parsed by the one parseRunFlags) and builds the task.
 * @throws UsageError for a bad value or an empty prompt.
 * @example taskSpecOf('fix the build', { maxTurns: '20' }, process.cwd(), process.env).limits.maxTurns // 20
 */
export function taskSpecOf(prompt: string, flags: SubmitFlags, cwd: string, env: NodeJS.ProcessEnv): TaskSpec {
  if (!prompt.trim()) throw new UsageError('no prompt: xagent submit -p "task"');
  const { limits, defaultLimits, ...parsed } = parseRunFlags(flags, env);
  const inspectPort = inspectPortOf(flags.inspect);
  const approvalTokenSha256 = approvalTokenOf(flags.approvalToken ?? env.XAGENT_APPROVAL_TOKEN);
  return {
    prompt,
    cwd: path.resolve(cwd, flags.cwd ?? '.'),
    ...parsed,
    limits: { ...defaultLimits, ...limits },
    ...(parsed.modelScript !== undefined ? { modelScript: path.resolve(cwd, parsed.modelScript) } : {}),
    ...(inspectPort !== undefined ? { inspectPort } : {}),
    ...(approvalTokenSha256 !== undefined ? { approvalTokenSha256 } : {}),
    // submit's own --resume always takes a session (only the terminal UI's -r may come alone).
    ...(typeof flags.resume === 'string' ? { resume: flags.resume } : {}),
  };
}

/** The token is never sent: the spec (kept in Restate's log, readable through its admin API) holds its hash. */
function approvalTokenOf(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  if (token.length < 16) throw new UsageError('--approval-token needs at least 16 characters (a random one: openssl rand -hex 16)');
  return tokenHash(token);
}

/** @example tokenHash('s3cret-s3cret-s3cret') // 64 hex digits */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A spec that passed TASK_SPEC_SCHEMA (a request from elsewhere may leave out what submit always
 * sends), with the defaults filled: `-p`'s limits, no rules, no trust.
 */
export function withDefaults(checked: Partial<TaskSpec> & Pick<TaskSpec, 'prompt' | 'cwd'>): TaskSpec {
  return {
    ...checked,
    limits: checked.limits ?? { ...DEFAULT_LIMITS },
    allow: checked.allow ?? [],
    deny: checked.deny ?? [],
    trust: checked.trust ?? false,
  };
}

/** A task's inspector needs a port named in advance: the task's status says where to look, on every attempt alike. */
function inspectPortOf(flag: string | boolean | undefined): number | undefined {
  if (flag === undefined || flag === false) return undefined;
  if (flag === true || !/^\d+$/.test(flag) || Number(flag) < 1 || Number(flag) > 65_535)
    throw new UsageError(`--inspect needs a port for a submitted task (from 1 to 65535): the worker serves the inspector there`);
  return Number(flag);
}

/** The run a worker builds for a task (buildRunConfig reads the worker's settings files and environment). */
export function runSpecOf(spec: TaskSpec, taskId: string): RunSpec {
  return {
    cwd: spec.cwd,
    ...(spec.model !== undefined ? { model: spec.model } : {}),
    ...(spec.modelScript !== undefined ? { modelScript: spec.modelScript } : {}),
    limits: spec.limits,
    format: 'json',
    ...(spec.permissionMode !== undefined ? { permissionMode: spec.permissionMode } : {}),
    allow: spec.allow,
    deny: spec.deny,
    inspectPort: spec.inspectPort ?? null,
    // A resumed task works in a fork of the session named by the task id (made before the run opens it).
    session: spec.resume ? { continue: false, resume: taskId } : { continue: false, newId: taskId },
    prompt: spec.prompt,
    ...(spec.sandbox !== undefined ? { sandbox: spec.sandbox } : {}),
    ...(spec.maxThinkingTokens !== undefined ? { maxThinkingTokens: spec.maxThinkingTokens } : {}),
    ...(spec.contextWindow !== undefined ? { contextWindow: spec.contextWindow } : {}),
    ...(spec.systemPrompt !== undefined ? { systemPrompt: spec.systemPrompt } : {}),
    ...(spec.appendSystemPrompt !== undefined ? { appendSystemPrompt: spec.appendSystemPrompt } : {}),
    trustProject: spec.trust,
  };
}
