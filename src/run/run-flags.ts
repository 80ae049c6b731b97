import { DEFAULT_LIMITS, type TaskLimits } from '../engine/limits.js';
import { PERMISSION_MODES } from '../permissions/types.js';
import { buildRunConfig, OUTPUT_FORMATS, type ModelFactory, type RunConfig } from './run-config.js';
import type { RunSpec } from './run-spec.js';
import { TRUST_ENV } from './trust-gate.js';
import { withholdAgentCredentials } from './agent-credentials.js';
import { tagThisRun } from '../system/process-group.js';
import { parseChoice, parseDuration, parsePositiveInt, splitInspectFlag, splitToolList } from './parse-options.js';

/** The flags as commander hands them over, all still strings. */
export interface RawOptions {
  print?: boolean;
  model?: string;
  maxTurns?: string;
  maxToolCalls?: string;
  timeout?: string;
  outputFormat?: string;
  permissionMode?: string;
  allow?: string[];
  deny?: string[];
  /** Claude Code's --allowedTools / --disallowedTools: lists of rules, each value comma- or space-separated. */
  allowedTools?: string[];
  disallowedTools?: string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  cwd?: string;
  resume?: string;
  continue?: boolean;
  /** --fork-session: with --resume / --continue, work in a new session forked from it. */
  forkSession?: boolean;
  inspect?: string | boolean;
  modelScript?: string;
  /** --sandbox (true) / --no-sandbox (false). */
  sandbox?: boolean;
  maxThinkingTokens?: string;
  contextWindow?: string;
  /** --trust: use the project files' MCP servers, hooks and allow rules without asking (also XAGENT_TRUST=1). */
  trust?: boolean;
}

/**
 * Resolves the flags of a task run (print or interactive mode) into a RunConfig: the flags are
 * parsed here, the rest is buildRunConfig's (src/run/), which the library shares.
 * A bad value is a UsageError (exit 2) before any request. Nothing below the CLI sees raw flags.
 * `defaults` fills the limits no flag gives: `-p`'s DEFAULT_LIMITS, or none in the interactive UI.
 * @example const config = resolveRunConfig(raw, promptArgs, process.env, createApiModel);
 */
export function resolveRunConfig(
  raw: RawOptions,
  promptArgs: string[],
  env: NodeJS.ProcessEnv,
  createApiModel: ModelFactory,
  defaults: TaskLimits = DEFAULT_LIMITS,
): RunConfig {
  const config = buildRunConfig(runSpecOfFlags(raw, promptArgs, env, defaults), env, createApiModel);
  // The model client has read the key: bash, hooks, MCP servers and git started from now on do not inherit it.
  withholdAgentCredentials(env);
  // Every process the run starts carries its tag, so the ones that leave their group (setsid) end with it.
  tagThisRun();
  return config;
}

/**
 * The flags as a RunSpec, checked (a bad value is a UsageError), before the environment and the
 * settings files are read: what `xagent batch` gives each of its tasks, changed by the task's line.
 * @example runSpecOfFlags({ maxTurns: '3' }, [], process.env).limits.maxTurns // 3
 */
export function runSpecOfFlags(
  raw: RawOptions,
  promptArgs: string[],
  env: NodeJS.ProcessEnv,
  defaults: TaskLimits = DEFAULT_LIMITS,
): RunSpec {
  const format = parseChoice(raw.outputFormat ?? 'text', OUTPUT_FORMATS, '--output-format');
  const limits: TaskLimits = {
    maxTurns: raw.maxTurns === undefined ? defaults.maxTurns : parsePositiveInt(raw.maxTurns, '--max-turns'),
    maxToolCalls: raw.maxToolCalls === undefined ? defaults.maxToolCalls : parsePositiveInt(raw.maxToolCalls, '--max-tool-calls'),
    timeoutMs: raw.timeout === undefined ? defaults.timeoutMs : parseDuration(raw.timeout),
  };
  const { port: inspectPort, promptArgs: words } = splitInspectFlag(raw.inspect, promptArgs);
  const permissionMode =
    raw.permissionMode === undefined ? undefined : parseChoice(raw.permissionMode, PERMISSION_MODES, '--permission-mode');
  return {
    cwd: raw.cwd,
    model: raw.model,
    modelScript: raw.modelScript,
    limits,
    format,
    permissionMode,
    allow: [...(raw.allow ?? []), ...splitToolList(raw.allowedTools)],
    deny: [...(raw.deny ?? []), ...splitToolList(raw.disallowedTools)],
    ...(raw.systemPrompt !== undefined ? { systemPrompt: raw.systemPrompt } : {}),
    ...(raw.appendSystemPrompt !== undefined ? { appendSystemPrompt: raw.appendSystemPrompt } : {}),
    inspectPort,
    session: {
      ...(raw.resume !== undefined ? { resume: raw.resume } : {}),
      continue: raw.continue === true,
      ...(raw.forkSession ? { fork: { at: null } } : {}),
    },
    prompt: words.join(' ').trim(),
    sandbox: raw.sandbox,
    maxThinkingTokens: raw.maxThinkingTokens,
    contextWindow: raw.contextWindow,
    trustProject: raw.trust === true || env[TRUST_ENV] === '1',
  };
}
