import { agentsOption, type AgentOption } from '../agents/agent-option.js';
import type { AgentDefinition } from '../agents/definition.js';
import type { RunSpec, SettingNames } from '../run/run-spec.js';
import { checkTaskOptions, TASK_OPTION_NAMES, taskSpecPart, type TaskOptions } from '../run/task-options.js';
import { UsageError } from '../errors/xagent-error.js';
import type { Tool } from '../tools/types.js';
import type { CanUseTool } from './can-use-tool.js';
import { HookConfigError, resolveHooks, type HooksConfig, type ResolvedHook } from '../hooks/index.js';

/** query()'s options: a task's (TaskOptions: cwd, model, limits, mode, rules, prompts), and how this one runs; every one may be left out. */
export interface QueryOptions extends TaskOptions {
  /** Custom tools made with tool(), added to the built-ins; one named like a built-in is an error. */
  tools?: readonly Tool[];
  /** Answers what the CLI would ask the person; without it such calls are denied and the task stops. */
  canUseTool?: CanUseTool;
  /** Aborting it stops the task: the result's reason is user_abort. */
  signal?: AbortSignal;
  /** Continue a recorded session (every run is recorded under XAGENT_HOME, as by the CLI). */
  session?: { resume?: string; continue?: boolean };
  /** A recorded session to continue (its id or a unique prefix): the same as `session: { resume }`. */
  resume?: string;
  /** With `resume`: continue in a new session forked from it, leaving the old one untouched (`--fork-session`). */
  forkSession?: boolean;
  /** With `forkSession`: the fork's conversation stops before this user message (1 is the first, as `xagent rewind --list` numbers them). */
  at?: number;
  /** Serve the live inspector on 127.0.0.1: true picks a free port, a number is the port. */
  inspect?: boolean | number;
  /** Called with the inspector's URL before the task starts. */
  onInspectorUrl?: (url: string) => void;
  /** false: ignore the settings files ($XAGENT_HOME and .xagent/); default true, as the CLI reads them. */
  readSettings?: boolean;
  /** Where ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL, XAGENT_HOME... are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * MCP servers for this run, in .mcp.json's shape; they are added to those of .mcp.json and the
   * settings files, and win over a server of the same name there. Their tools are `mcp__<name>__<tool>`.
   * @example { everything: { command: 'npx', args: ['@modelcontextprotocol/server-everything'] }, web: { type: 'http', url: 'http://127.0.0.1:3000/mcp' } }
   */
  mcpServers?: Record<string, McpServerOption>;
  /**
   * Hooks in Claude Code's shape, run with those of the settings files; a hook may be a command or
   * a function: `{ PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'function', callback: (input) => ({ decision: 'deny', reason: 'no shell' }) }] }] }`.
   */
  hooks?: HooksConfig;
  /**
   * Subagents the `task` tool may start, by name, as agent files define them; they win over
   * agent files of the same name (`.xagent/agents/`, `.claude/agents/`, `$XAGENT_HOME/agents/`).
   * @example { scout: { description: 'Finds where things are', prompt: 'Search, then answer with paths.', tools: ['Read', 'Grep', 'Glob'] } }
   */
  agents?: Record<string, AgentOption>;
  /** Where the run's notes go (session warnings, the inspector's URL), as the CLI's stderr; null drops them. Default process.stderr. */
  stderr?: NodeJS.WritableStream | null;
}

/** One MCP server, as in .mcp.json: a command to start (stdio), or a Streamable HTTP endpoint. `${VAR}` is expanded from `env`. */
export type McpServerOption =
  | { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string> }
  | { type: 'http'; url: string; headers?: Record<string, string> };

const KNOWN: ReadonlyArray<keyof QueryOptions> = [
  ...TASK_OPTION_NAMES,
  'tools',
  'canUseTool',
  'signal',
  'session',
  'resume',
  'forkSession',
  'at',
  'inspect',
  'onInspectorUrl',
  'readSettings',
  'mcpServers',
  'hooks',
  'agents',
  'env',
  'stderr',
];

const NAMES: SettingNames = { cwd: 'cwd', model: 'model', maxThinkingTokens: 'maxThinkingTokens', contextWindow: 'contextWindow' };

/** A count given as an option (`at`), checked. */
function positiveInt(value: number | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`${what} must be a whole number of at least 1 (got ${String(value)})`);
  return value;
}

function inspectPort(value: boolean | number | undefined): number | null {
  if (value === undefined || value === false) return null;
  if (value === true) return 0;
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    throw new UsageError(`inspect must be true or a port from 0 to 65535 (got ${String(value)})`);
  }
  return value;
}

/**
 * The library's options, checked, as the RunSpec the CLI's flags also become: from here on the
 * library and the CLI share one run setup. A bad option is a UsageError naming it.
 * @example toRunSpec('say hi', { maxTurns: 3 }).limits.maxTurns // 3
 */
export function toRunSpec(prompt: string, options: QueryOptions): RunSpec {
  if (typeof prompt !== 'string' || prompt.trim() === '') throw new UsageError('query() needs a prompt: a non-empty string');
  if (typeof options !== 'object' || options === null) throw new UsageError('query() options must be an object');
  const unknown = Object.keys(options).filter((key) => !(KNOWN as readonly string[]).includes(key));
  if (unknown.length > 0) throw new UsageError(`unknown option ${unknown.map((k) => `"${k}"`).join(', ')} (options: ${KNOWN.join(', ')})`);
  checkTaskOptions(options as Readonly<Record<string, unknown>>);
  if (options.tools !== undefined && !Array.isArray(options.tools)) throw new UsageError('tools must be an array of tool(...) definitions');
  for (const key of ['canUseTool', 'onInspectorUrl'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function') throw new UsageError(`${key} must be a function`);
  }
  return {
    ...taskSpecPart(options),
    // The events are stream-json's; the format only picks a CLI renderer, which the library does not use.
    format: 'stream-json',
    inspectPort: inspectPort(options.inspect),
    session: sessionOption(options),
    prompt,
    extraTools: options.tools ?? [],
    readSettings: options.readSettings !== false,
    ...(options.mcpServers !== undefined ? { mcpServers: options.mcpServers } : {}),
    ...(options.hooks !== undefined ? { hooks: hooksOption(options.hooks) } : {}),
    ...(options.agents !== undefined ? { agents: agentDefinitions(options.agents) } : {}),
    names: NAMES,
  };
}

function agentDefinitions(value: unknown): AgentDefinition[] {
  const parsed = agentsOption(value);
  if ('problem' in parsed) throw new UsageError(parsed.problem);
  return parsed.agents;
}

function sessionOption(options: QueryOptions): RunSpec['session'] {
  const resume = options.resume ?? options.session?.resume;
  if (options.resume !== undefined && options.session?.resume !== undefined && options.resume !== options.session.resume) {
    throw new UsageError('resume and session.resume name different sessions; give one');
  }
  const continues = options.session?.continue === true;
  if (options.forkSession && resume === undefined && !continues) throw new UsageError('forkSession needs resume (the session to fork)');
  if (options.at !== undefined) {
    if (!options.forkSession) throw new UsageError('at needs forkSession: true (query() never rewinds a recorded session in place)');
    positiveInt(options.at, 'at');
  }
  return {
    ...(resume !== undefined ? { resume } : {}),
    continue: continues,
    ...(options.forkSession ? { fork: { at: options.at ?? null } } : {}),
  };
}

function hooksOption(config: HooksConfig): ResolvedHook[] {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(
      'hooks must be an object of event name to matcher groups, e.g. { PreToolUse: [{ matcher: "bash", hooks: [...] }] }',
    );
  }
  try {
    return resolveHooks(config, 'the hooks option');
  } catch (error) {
    if (error instanceof HookConfigError) throw new UsageError(`the hooks option: ${error.message}`);
    throw error;
  }
}
