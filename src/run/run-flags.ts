import { DEFAULT_LIMITS, type TaskLimits } from '../engine/limits.js';
import type { RunFlags } from './add-run-flags.js';
import { parseRunFlags } from './parse-run-flags.js';
import { buildRunConfig, OUTPUT_FORMATS, type ModelFactory, type RunConfig } from './run-config.js';
import type { RunSpec } from './run-spec.js';
import { withholdAgentCredentials } from './agent-credentials.js';
import { tagThisRun } from '../system/process-group.js';
import { parseChoice, splitInspectFlag } from './parse-options.js';
import { UsageError } from '../errors/xagent-error.js';

/** What `-p -r` without a session id answers. */
export const RESUME_NEEDS_ID =
  '-r/--resume needs a session id with -p (xagent sessions lists them; -c continues the latest); without -p, xagent -r opens a picker';

/**
 * Resolves the flags of a task run (print or interactive mode) into a RunConfig: the flags are
 * parsed here, the rest is buildRunConfig's (src/run/), which the library shares.
 * A bad value is a UsageError (exit 2) before any request. Nothing below the CLI sees raw flags.
 * `defaults` fills the limits neither a flag nor the settings' `limits` give: `-p`'s DEFAULT_LIMITS, or none in the interactive UI.
 * @example const config = resolveRunConfig(raw, promptArgs, process.env, createApiModel);
 */
export function resolveRunConfig(
  raw: RunFlags,
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
  raw: RunFlags,
  promptArgs: string[],
  env: NodeJS.ProcessEnv,
  defaults: TaskLimits = DEFAULT_LIMITS,
): RunSpec {
  const format = parseChoice(raw.outputFormat ?? 'text', OUTPUT_FORMATS, '--output-format');
  // The interactive UI opens a picker for `-r` alone (src/cli/interactive-mode.ts); here nobody can pick.
  if (raw.resume === true) throw new UsageError(RESUME_NEEDS_ID);
  const { trust, ...flags } = parseRunFlags(raw, env, defaults);
  const { port: inspectPort, promptArgs: words } = splitInspectFlag(raw.inspect, promptArgs);
  return {
    ...flags,
    cwd: raw.cwd,
    format,
    inspectPort,
    session: {
      ...(raw.resume !== undefined ? { resume: raw.resume } : {}),
      continue: raw.continue === true,
      ...(raw.forkSession ? { fork: { at: null } } : {}),
    },
    prompt: words.join(' ').trim(),
    trustProject: trust,
  };
}
