import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ModelClient } from '../model/types.js';
import { createScriptedClient, loadModelScript, ModelScriptError } from '../model/scripted.js';
import { loadSettings, SettingsError, type PermissionRule } from '../permissions/index.js';
import { xagentHome } from '../sessions/layout.js';
import { createPermissionPolicy, type PermissionPrompt, type SessionPermissionPolicy } from '../permissions/index.js';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types.js';
import { ToolRegistry } from '../tools/registry.js';
import { builtinTools } from '../tools/builtin/index.js';
import { sandboxForRun, SandboxUnavailableError, type Sandbox, type SandboxSettings } from '../sandbox/index.js';
import { UsageError } from './exit-codes.js';
import { parseContextOptions } from './context-options.js';
import { parseChoice, parseDuration, parsePositiveInt, splitInspectFlag } from './parse-options.js';
import { DEFAULT_LIMITS, type TaskLimits } from '../engine/limits.js';
import type { ResolvedHook } from '../hooks/index.js';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const DEFAULT_MODEL = 'claude-sonnet-5-5';

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
  cwd?: string;
  resume?: string;
  continue?: boolean;
  inspect?: string | boolean;
  modelScript?: string;
  /** --sandbox (true) / --no-sandbox (false). */
  sandbox?: boolean;
  maxThinkingTokens?: string;
  contextWindow?: string;
}

/**
 * Everything a run needs, resolved once from the flags, the environment and the settings files:
 * a bad value is a UsageError (exit 2) before any request. Nothing below the CLI sees raw flags.
 */
export interface RunConfig {
  workspace: string;
  home: string;
  model: ModelClient;
  modelId: string;
  /** What the model is called on screens: the model id, or the script a scripted run replays. */
  modelLabel: string;
  tools: ToolRegistry;
  limits: TaskLimits;
  format: OutputFormat;
  permissionMode: PermissionMode;
  rules: PermissionRule[];
  /** Extended thinking budget; 0 = off. */
  maxThinkingTokens: number;
  /** The window compaction keeps the conversation under. */
  contextWindow: number;
  /** The inspector's port (0 picks a free one), or null without --inspect. */
  inspectPort: number | null;
  /** Which recorded session to continue, if any. */
  session: { resume?: string; continue: boolean };
  /** The prompt given as arguments ('' when none). */
  prompt: string;
  /** Set when commands run in the OS sandbox: bash uses it; hooks and stdio MCP servers should (see src/sandbox/README.md). */
  sandbox?: Sandbox;
  sandboxSettings: SandboxSettings;
  /** The hooks of every settings file. */
  hooks: ResolvedHook[];
}

function resolveWorkspace(dir: string | undefined): string {
  const target = path.resolve(dir ?? process.cwd());
  try {
    if (!statSync(target).isDirectory()) throw new UsageError(`--cwd ${target} is not a directory`);
    return realpathSync(target);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--cwd ${target} does not exist`);
  }
}

export type ModelFactory = (options: { modelId: string; env: NodeJS.ProcessEnv; maxThinkingTokens?: number }) => ModelClient;

/**
 * Resolves the flags of a task run (print or interactive mode) into a RunConfig.
 * @example const config = resolveRunConfig(raw, promptArgs, process.env, createApiModel);
 */
export function resolveRunConfig(raw: RawOptions, promptArgs: string[], env: NodeJS.ProcessEnv, createApiModel: ModelFactory): RunConfig {
  const format = parseChoice(raw.outputFormat ?? 'text', OUTPUT_FORMATS, '--output-format');
  const limits: TaskLimits = {
    maxTurns: raw.maxTurns === undefined ? DEFAULT_LIMITS.maxTurns : parsePositiveInt(raw.maxTurns, '--max-turns'),
    maxToolCalls: raw.maxToolCalls === undefined ? DEFAULT_LIMITS.maxToolCalls : parsePositiveInt(raw.maxToolCalls, '--max-tool-calls'),
    timeoutMs: raw.timeout === undefined ? DEFAULT_LIMITS.timeoutMs : parseDuration(raw.timeout),
  };
  const { port: inspectPort, promptArgs: words } = splitInspectFlag(raw.inspect, promptArgs);
  const workspace = resolveWorkspace(raw.cwd);
  if (raw.model !== undefined && raw.model.trim() === '')
    throw new UsageError('--model is empty: give a model id, e.g. --model claude-sonnet-4-5');
  const modelId = raw.model ?? env.ANTHROPIC_MODEL ?? DEFAULT_MODEL;
  const home = path.resolve(xagentHome(env));
  const { maxThinkingTokens, contextWindow } = parseContextOptions(raw, env, modelId);
  const flagMode = raw.permissionMode === undefined ? undefined : parseChoice(raw.permissionMode, PERMISSION_MODES, '--permission-mode');
  let settings;
  try {
    settings = loadSettings({ workspace, home, allow: raw.allow ?? [], deny: raw.deny ?? [] });
  } catch (error) {
    if (error instanceof SettingsError) throw new UsageError(error.message);
    throw error;
  }
  let sandboxed: ReturnType<typeof sandboxForRun>;
  try {
    sandboxed = sandboxForRun({ flag: raw.sandbox, layers: settings.sandbox, workspace, xagentHome: home, env });
  } catch (error) {
    if (error instanceof SandboxUnavailableError) throw new UsageError(error.message);
    throw error;
  }
  let model: ModelClient;
  if (raw.modelScript) {
    try {
      model = createScriptedClient(loadModelScript(path.resolve(raw.modelScript)));
    } catch (error) {
      if (error instanceof ModelScriptError) throw new UsageError(error.message);
      throw error;
    }
  } else {
    model = createApiModel({ modelId, env, maxThinkingTokens });
  }
  return {
    workspace,
    home,
    permissionMode: flagMode ?? settings.mode ?? 'default',
    rules: settings.rules,
    model,
    modelId,
    modelLabel: raw.modelScript ? `scripted (${raw.modelScript})` : modelId,
    tools: new ToolRegistry(builtinTools(sandboxed.sandbox ? { sandbox: sandboxed.sandbox } : {})),
    limits,
    format,
    maxThinkingTokens,
    contextWindow,
    inspectPort,
    session: { ...(raw.resume !== undefined ? { resume: raw.resume } : {}), continue: raw.continue === true },
    prompt: words.join(' ').trim(),
    ...(sandboxed.sandbox ? { sandbox: sandboxed.sandbox } : {}),
    sandboxSettings: sandboxed.settings,
    hooks: settings.hooks,
  };
}

/** The permission policy of a run: its rules and mode, and a prompt only where a person can answer. */
export function policyFor(config: RunConfig, prompt?: PermissionPrompt): SessionPermissionPolicy {
  return createPermissionPolicy({
    mode: config.permissionMode,
    rules: config.rules,
    workspace: config.workspace,
    prompt,
    sandbox: config.sandbox !== undefined,
  });
}
