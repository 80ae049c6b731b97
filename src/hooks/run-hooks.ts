import type { HookOutcome, HookRunInput } from '../../machines/hooks.js';
import { claudeToolInput, claudeToolName, claudeToolResponse } from './claude-input.js';
import type { AnyHookEvent } from './events.js';
import { capMessage, toVerdict, verdictOfCommand, type HookVerdict } from './interpret.js';
import { matchesTool } from './matcher.js';
import { runCommand } from './run-command.js';
import type { CommandSandbox } from '../tools/types.js';
import type { FunctionHook, HookInput, HookRunReport, ResolvedHook } from './types.js';

export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/** What every hook input carries besides the event's own fields. */
export interface HookSession {
  sessionId: string;
  transcriptPath: string | null;
  cwd: string;
  /** For SessionStart: a new session, or one resumed (--resume, --continue). */
  source?: 'startup' | 'resume';
  /** The run's permission mode, as Claude Code's `permission_mode`. */
  permissionMode?: string;
  /** How long a finished tool call ran (Claude Code's `duration_ms` for PostToolUse), if the session knows. */
  toolDurationMs?: (callId: string) => number | undefined;
  /** The subagent the hooks run for (absent for the main agent): Claude Code's `agent_id` and `agent_type`. */
  agent?: { id: string; type: string };
  /** Claude Code's `prompt_id`: the same for every hook run of one prompt's task. */
  promptId?: string;
  /** The text of the model's last answer, for Stop and SubagentStop (`last_assistant_message`). */
  lastAssistantMessage?: () => string;
  /** Set over the inherited environment for command hooks (the settings' `env`). */
  env?: Readonly<Record<string, string>>;
}

/** What one event's hooks are run with: the chart's input, or an event run outside the chart with its own fields. */
export type AnyHookRunInput = HookRunInput | (Omit<HookRunInput, 'event'> & { event: AnyHookEvent; fields?: Record<string, unknown> });

/**
 * The JSON a hook gets, in Claude Code's field names. Command hooks (`claude: true`), written for
 * Claude Code, get its tool names and input fields (`tool_name: "Bash"`, `tool_input.file_path`);
 * function hooks, xagent's library API, keep xagent's (`bash`, `path`).
 */
export function hookInputJson(session: HookSession, input: AnyHookRunInput, options: { claude?: boolean } = {}): HookInput {
  const json: HookInput = {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    hook_event_name: input.event,
  };
  if (session.permissionMode !== undefined) json.permission_mode = session.permissionMode;
  if (session.agent) Object.assign(json, { agent_id: session.agent.id, agent_type: session.agent.type });
  const { call, result } = input;
  if (call && options.claude) {
    Object.assign(json, {
      tool_name: claudeToolName(call.name),
      tool_input: claudeToolInput(call.name, call.input, session.cwd),
      tool_use_id: call.id,
    });
  } else if (call) Object.assign(json, { tool_name: call.name, tool_input: call.input, tool_use_id: call.id });
  if (result) {
    const plain = { content: result.content, is_error: result.is_error === true };
    json.tool_response = call && options.claude ? claudeToolResponse(call.name, call.input, plain, session.cwd) : plain;
  }
  if (result && call) {
    const duration = session.toolDurationMs?.(call.id);
    if (duration !== undefined) json.duration_ms = duration;
  }
  if (input.prompt !== undefined) json.prompt = input.prompt;
  if (input.stopHookActive !== undefined) json.stop_hook_active = input.stopHookActive;
  if (session.promptId !== undefined) json.prompt_id = session.promptId;
  if ((input.event === 'Stop' || input.event === 'SubagentStop') && session.lastAssistantMessage)
    json.last_assistant_message = session.lastAssistantMessage();
  if (input.event === 'SessionStart') json.source = input.source ?? session.source ?? 'startup';
  if ('fields' in input && input.fields) Object.assign(json, input.fields);
  return json;
}

/** What a non-tool event's matcher is matched against, as in Claude Code (SessionStart: the source). */
function matcherSubject(input: AnyHookRunInput, session?: HookSession): string | undefined {
  if (input.event === 'SessionStart') return session?.source ?? 'startup';
  const fields = 'fields' in input ? input.fields : undefined;
  const subject = fields?.trigger ?? fields?.reason ?? fields?.notification_type;
  return typeof subject === 'string' ? subject : undefined;
}

/**
 * The hooks of `input.event` that apply: for tool events, those whose matcher takes the tool's
 * name (xagent's or Claude Code's); for SessionStart, SessionEnd, PreCompact and Notification,
 * the source, reason, trigger or type. The same command configured twice (in two settings files,
 * under two matchers) runs once.
 */
export function hooksFor(
  hooks: readonly ResolvedHook[],
  input: Pick<AnyHookRunInput, 'event' | 'call'> & { fields?: Record<string, unknown> },
  session?: HookSession,
): ResolvedHook[] {
  const commands = new Set<string>();
  const subject = input.call ? undefined : matcherSubject(input as AnyHookRunInput, session);
  return hooks.filter((h) => {
    if (h.event !== input.event || (input.call && !matchesTool(h.matcher, input.call.name))) return false;
    if (subject !== undefined && h.matcher !== null && !h.matcher.test(subject)) return false;
    if (h.hook.type !== 'command') return true;
    if (commands.has(h.hook.command)) return false;
    commands.add(h.hook.command);
    return true;
  });
}

export function hookLabel(hook: ResolvedHook['hook']): string {
  return hook.type === 'command' ? hook.command : hook.name ? `function ${hook.name}` : 'function';
}

/**
 * Runs every hook of the event that applies, all at once (as Claude Code does), each under its
 * own timeout, and merges their answers: any block wins, then ask, then allow. A hook that fails
 * or hangs is reported and has no say; it never blocks.
 * @example const outcome = await runHooks({ hooks, input: { event: 'Stop' }, session, signal, report: console.log });
 */
export async function runHooks(options: {
  hooks: readonly ResolvedHook[];
  input: AnyHookRunInput;
  session: HookSession;
  signal: AbortSignal;
  report: (report: HookRunReport) => void;
  /** Command hooks run inside it (the run's --sandbox). */
  sandbox?: CommandSandbox;
}): Promise<HookOutcome> {
  const { input, session, signal, report } = options;
  const due = hooksFor(options.hooks, input, session);
  const json = hookInputJson(session, input);
  const claudeJson = JSON.stringify(hookInputJson(session, input, { claude: true }));
  const verdicts = await Promise.all(
    due.map(async (resolved) => {
      const timeoutMs = (resolved.hook.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000;
      const started = Date.now();
      let verdict: HookVerdict;
      let exitCode: number | null = null;
      if (resolved.hook.type === 'command') {
        const run = await runCommand({
          command: resolved.hook.command,
          cwd: session.cwd,
          stdin: claudeJson,
          timeoutMs,
          signal,
          env: { ...session.env, XAGENT_PROJECT_DIR: session.cwd, CLAUDE_PROJECT_DIR: session.cwd },
          ...(options.sandbox ? { sandbox: options.sandbox } : {}),
        });
        exitCode = run.exitCode;
        verdict = verdictOfCommand(input.event, run);
      } else {
        verdict = await runFunction(resolved.hook, json, input, timeoutMs, signal);
      }
      const label = hookLabel(resolved.hook);
      report({
        hook_event: input.event,
        command: label,
        exit_code: exitCode,
        duration_ms: Date.now() - started,
        outcome: verdict.outcome,
        ...(verdict.message ? { message: verdict.message } : {}),
        ...(input.call ? { tool_name: input.call.name } : {}),
      });
      return { verdict, decidedBy: `hook ${input.event}: ${label}` };
    }),
  );
  return mergeVerdicts(verdicts);
}

/** Block beats ask beats allow; blocks' reasons are all kept; every hook's context is added. */
export function mergeVerdicts(verdicts: ReadonlyArray<{ verdict: HookVerdict; decidedBy: string }>): HookOutcome {
  const context = verdicts.flatMap((v) => (v.verdict.context ? [v.verdict.context] : [])).join('\n\n');
  const withContext = context ? { context } : {};
  for (const decision of ['block', 'ask', 'allow'] as const) {
    const deciding = verdicts.filter((v) => v.verdict.decision === decision);
    const [first] = deciding;
    if (!first) continue;
    const reason = deciding.flatMap((v) => (v.verdict.reason ? [v.verdict.reason] : [])).join('\n');
    return { decision, decidedBy: first.decidedBy, ...(reason ? { reason } : {}), ...withContext };
  }
  return { decision: null, ...withContext };
}

async function runFunction(
  hook: FunctionHook,
  json: HookInput,
  input: AnyHookRunInput,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<HookVerdict> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const output = await Promise.race([
      Promise.resolve().then(() => hook.callback(structuredClone(json), { signal: controller.signal })),
      timedOut,
    ]);
    if (output === 'timeout') {
      controller.abort(new Error('hook timed out'));
      return { decision: null, outcome: 'timeout', message: 'timed out' };
    }
    if (typeof output !== 'object' || output === null) return toVerdict(input.event, {});
    return toVerdict(input.event, output);
  } catch (error) {
    return { decision: null, outcome: 'error', message: capMessage(error instanceof Error ? error.message : String(error)) };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
