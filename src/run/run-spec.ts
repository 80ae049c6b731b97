import type { AgentDefinition } from '../agents/definition.js';
import { BUILTIN_TOOL_NAMES } from '../permissions/known-tools.js';
import type { PermissionMode } from '../permissions/types.js';
import type { TaskLimits } from '../engine/limits.js';
import type { Tool } from '../tools/types.js';
import type { ResolvedHook } from '../hooks/index.js';
import type { OutputFormat } from './run-config.js';
import { UsageError } from '../errors/xagent-error.js';

/** How a run's settings are named in messages: the CLI's flags, or the library's options. */
export interface SettingNames {
  cwd: string;
  model: string;
  maxThinkingTokens: string;
  contextWindow: string;
}

export const FLAG_NAMES: SettingNames = {
  cwd: '--cwd',
  model: '--model',
  maxThinkingTokens: '--max-thinking-tokens',
  contextWindow: '--context-window',
};

/**
 * What a front end (the CLI's flags, the library's options) asks of a run, already typed and
 * checked; buildRunConfig adds the environment, the settings files, the sandbox, the model and the tools.
 */
export interface RunSpec {
  cwd?: string;
  /** The model id asked for; default ANTHROPIC_MODEL, else DEFAULT_MODEL. */
  model?: string;
  /** Replay this model script instead of calling the API. */
  modelScript?: string;
  /** The limits the front end was given (flags, options); the rest come from the settings' `limits`, then `defaultLimits`. */
  limits: Partial<TaskLimits>;
  /** What fills a limit nobody set: `-p`'s DEFAULT_LIMITS (the default), or INTERACTIVE_LIMITS. */
  defaultLimits?: TaskLimits;
  format: OutputFormat;
  permissionMode?: PermissionMode;
  allow?: readonly string[];
  deny?: readonly string[];
  inspectPort: number | null;
  /** `newId`: the id of the new session (a durable task's id, src/restate/). */
  session: { resume?: string; continue: boolean; fork?: { at: number | null }; newId?: string };
  prompt: string;
  /** --sandbox / --no-sandbox; undefined lets the settings decide. */
  sandbox?: boolean;
  /** Still text: the environment variables they override are text too. */
  maxThinkingTokens?: string;
  contextWindow?: string;
  /** Tools added to the built-ins (the library's custom tools); one named like a built-in is a UsageError. */
  extraTools?: readonly Tool[];
  /** false: ignore the settings files; rules come from `allow` and `deny` only. Default true. */
  readSettings?: boolean;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** MCP servers given in code (the library's `mcpServers`), in .mcp.json's shape; they win over the files' servers of the same name. */
  mcpServers?: unknown;
  /** Agents given in code (the library's `agents`): they win over agent files of the same name. */
  agents?: readonly AgentDefinition[];
  /** Hooks given in code (the library's `hooks`, function hooks too), run with those of the settings files. */
  hooks?: readonly ResolvedHook[];
  names?: SettingNames;
  /** --permission-prompt-tool: the MCP tool that answers permission questions in -p. */
  permissionPromptTool?: string;
  /**
   * The trust gate (src/trust/): undefined leaves it off (the library: the program decides what it
   * reads); false keeps untrusted project items out until settleTrust; true trusts them (--trust).
   */
  trustProject?: boolean;
}

/**
 * Every tool name of a run, built-ins first; a custom tool named like a built-in, or two custom
 * tools with one name, is a UsageError: one would silently replace the other.
 * @example uniqueToolNames([rollDice]) // ['read_file', ..., 'bash', 'roll_dice']
 */
export function uniqueToolNames(extraTools: readonly Tool[]): string[] {
  const names = [...BUILTIN_TOOL_NAMES, ...extraTools.map((t) => t.name)];
  const clash = names.find((name, i) => names.indexOf(name) !== i);
  if (clash !== undefined) {
    throw new UsageError(
      BUILTIN_TOOL_NAMES.includes(clash)
        ? `tool "${clash}" clashes with the built-in tool of that name: give yours another name`
        : `two tools are named "${clash}": tool names must be unique`,
    );
  }
  return names;
}
