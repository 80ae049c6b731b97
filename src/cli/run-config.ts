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
import { UsageError } from './exit-codes.js';
import { parseChoice, parseDuration, parsePositiveInt } from './parse-options.js';

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
}

/** Everything a run needs, checked: a bad value is a UsageError (exit 2) before any request. */
export interface RunConfig {
  workspace: string;
  home: string;
  model: ModelClient;
  modelId: string;
  tools: ToolRegistry;
  maxTurns: number;
  maxToolCalls: number;
  timeoutMs: number;
  format: OutputFormat;
  permissionMode: PermissionMode;
  rules: PermissionRule[];
  raw: RawOptions;
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

export type ModelFactory = (options: { modelId: string; env: NodeJS.ProcessEnv }) => ModelClient;

export function buildRunConfig(raw: RawOptions, env: NodeJS.ProcessEnv, createApiModel: ModelFactory): RunConfig {
  const format = parseChoice(raw.outputFormat ?? 'text', OUTPUT_FORMATS, '--output-format');
  const maxTurns = parsePositiveInt(raw.maxTurns ?? '8', '--max-turns');
  const maxToolCalls = parsePositiveInt(raw.maxToolCalls ?? '12', '--max-tool-calls');
  const timeoutMs = parseDuration(raw.timeout ?? '120s');
  const workspace = resolveWorkspace(raw.cwd);
  const modelId = raw.model ?? env.ANTHROPIC_MODEL ?? DEFAULT_MODEL;
  const home = path.resolve(xagentHome(env));
  const flagMode = raw.permissionMode === undefined ? undefined : parseChoice(raw.permissionMode, PERMISSION_MODES, '--permission-mode');
  let settings;
  try {
    settings = loadSettings({ workspace, home, allow: raw.allow ?? [], deny: raw.deny ?? [] });
  } catch (error) {
    if (error instanceof SettingsError) throw new UsageError(error.message);
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
    if (!env.ANTHROPIC_API_KEY) {
      throw new UsageError(
        'ANTHROPIC_API_KEY is not set. Export your key (export ANTHROPIC_API_KEY=sk-ant-...), ' +
          'or try the offline demo with --model-script (see npm start).',
      );
    }
    model = createApiModel({ modelId, env });
  }
  return {
    workspace,
    home,
    permissionMode: flagMode ?? settings.mode ?? 'default',
    rules: settings.rules,
    model,
    modelId,
    tools: new ToolRegistry(builtinTools()),
    maxTurns,
    maxToolCalls,
    timeoutMs,
    format,
    raw,
  };
}

/** The permission policy of a run: its rules and mode, and a prompt only where a person can answer. */
export function policyFor(config: RunConfig, prompt?: PermissionPrompt): SessionPermissionPolicy {
  return createPermissionPolicy({ mode: config.permissionMode, rules: config.rules, workspace: config.workspace, prompt });
}
