import type { AnyHookEvent } from './events.js';

export type { HookEventName, HookOutcome } from '../../machines/hooks.js';
export { HOOK_EVENTS } from '../../machines/hooks.js';

/** What a hook gets: the JSON object on a command hook's stdin, the first argument of a function hook. */
export interface HookInput {
  session_id: string;
  /** The session's transcript.jsonl; null when the run keeps no record. */
  transcript_path: string | null;
  cwd: string;
  hook_event_name: AnyHookEvent;
  /** PreToolUse, PostToolUse. */
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
  /** PostToolUse: the result the tool gave; command hooks also get Claude Code's fields (`stdout`, `filePath`, ...). */
  tool_response?: { content: string; is_error: boolean; [field: string]: unknown };
  /** PostToolUse: how long the tool ran, in ms (from the session's audit.jsonl). */
  duration_ms?: number;
  /** The run's permission mode (Claude Code's `permission_mode`). */
  permission_mode?: string;
  /** UserPromptSubmit. */
  prompt?: string;
  /** Stop: true when the model is already continuing because a Stop hook blocked. */
  stop_hook_active?: boolean;
  /** A subagent's hooks: its agent path (`main/task-1`) and its agent's name, as Claude Code's `agent_id` and `agent_type`. */
  agent_id?: string;
  agent_type?: string;
  /** SessionStart: `startup` for a new session, `resume` for one continued (--resume, --continue). */
  source?: 'startup' | 'resume';
  /** Fields of events run outside the chart (SessionEnd's `reason`, PreCompact's `trigger`, ...). */
  [field: string]: unknown;
}

/**
 * What a function hook returns; a command hook's exit code and stdout say the same. `deny` and
 * `block` (exit 2) stop what the event is about; `allow` / `ask` are PreToolUse permission decisions.
 */
export interface HookOutput {
  decision?: 'allow' | 'deny' | 'ask' | 'block';
  /** For a block: what the model (or, for a prompt, the user) is told. */
  reason?: string;
  /** Added to the conversation: UserPromptSubmit and SessionStart before the prompt, PostToolUse after the result. */
  additionalContext?: string;
  /** Shown to the user (a line on stderr, the hook's entry in the inspector), never to the model. */
  systemMessage?: string;
}

/** A hook configured in a settings file: a shell command run with `bash -c` in the workspace. */
export interface CommandHook {
  type: 'command';
  command: string;
  /** Seconds; default 60. */
  timeout?: number;
}

/**
 * A hook given by a program that uses xagent as a library.
 * @example { type: 'function', callback: (input) => (input.tool_name === 'bash' ? { decision: 'deny', reason: 'no shell' } : {}) }
 */
export interface FunctionHook {
  type: 'function';
  callback: (input: HookInput, options: { signal: AbortSignal }) => Promise<HookOutput> | HookOutput;
  /** Seconds; default 60. */
  timeout?: number;
  /** Shown in the trace instead of `function`. */
  name?: string;
}

export type HookDefinition = CommandHook | FunctionHook;

/** One matcher and its hooks, as in Claude Code's settings. */
export interface HookMatcherGroup {
  /** Tool names for PreToolUse / PostToolUse: an exact name, `a|b`, or a regex; empty, `*` or absent: every tool. */
  matcher?: string;
  hooks: HookDefinition[];
}

/** The `hooks` key of a settings file, or `query()`'s `hooks` option. */
export type HooksConfig = Partial<Record<AnyHookEvent, HookMatcherGroup[]>>;

/** One hook ready to run: its event, its compiled matcher and where it came from. */
export interface ResolvedHook {
  event: AnyHookEvent;
  /** null: every tool (and every non-tool event). */
  matcher: RegExp | null;
  hook: HookDefinition;
  /** The settings file, or `query()` for hooks given in code. */
  source: string;
}

/** What the runner reports about one hook run: the trace annotation and the `hook` event say the same. */
export interface HookRunReport {
  hook_event: AnyHookEvent;
  /** The command, or `function` (`function <name>`) for a function hook. */
  command: string;
  /** null for a function hook, a timeout or a process killed by a signal. */
  exit_code: number | null;
  duration_ms: number;
  outcome: 'allowed' | 'denied' | 'asked' | 'blocked' | 'ok' | 'error' | 'timeout';
  /** What the hook said (stderr, a reason, the error), capped. */
  message?: string;
  tool_name?: string;
}
