import type { AnyHookEvent } from './events.js';
import type { CommandRun } from './run-command.js';
import type { HookOutput, HookRunReport } from './types.js';

/** One hook's answer, before the answers of an event's hooks are merged. */
export interface HookVerdict {
  decision: 'allow' | 'ask' | 'block' | null;
  reason?: string;
  context?: string;
  outcome: HookRunReport['outcome'];
  /** What the user is shown for an error, a timeout or a block. */
  message?: string;
}

/** What a hook may tell the model or the user; longer is cut. */
export const MAX_HOOK_MESSAGE = 10_000;

export function capMessage(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_HOOK_MESSAGE ? `${trimmed.slice(0, MAX_HOOK_MESSAGE)}… [cut]` : trimmed;
}

/** Events whose plain stdout is context for the model (Claude Code does the same). */
const STDOUT_IS_CONTEXT: ReadonlySet<AnyHookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);

/**
 * A command hook's exit code and output as a verdict: 0 goes on (its stdout may be JSON with a
 * decision, or context), 2 blocks with its stderr, anything else is an error shown to the user.
 * @example verdictOfCommand('PreToolUse', { exitCode: 2, stderr: 'no rm', ... }).decision // 'block'
 */
export function verdictOfCommand(event: AnyHookEvent, run: CommandRun): HookVerdict {
  if (run.timedOut) return { decision: null, outcome: 'timeout', message: 'timed out; its process group was killed' };
  if (run.aborted) return { decision: null, outcome: 'error', message: 'interrupted; its process group was killed' };
  if (run.spawnError) return { decision: null, outcome: 'error', message: capMessage(run.spawnError) };
  if (run.exitCode === 2) {
    const reason = capMessage(run.stderr) || 'blocked by a hook (exit 2, no message)';
    return toVerdict(event, { decision: 'block', reason });
  }
  if (run.exitCode !== 0) {
    const message = capMessage(run.stderr || run.stdout) || `exit code ${String(run.exitCode)}`;
    return { decision: null, outcome: 'error', message };
  }
  const json = parseJsonObject(run.stdout);
  if (json) return toVerdict(event, outputOfJson(event, json));
  const text = capMessage(run.stdout);
  return toVerdict(event, STDOUT_IS_CONTEXT.has(event) && text ? { additionalContext: text } : {});
}

/** Bad JSON is plain text: only a whole JSON object counts. */
function parseJsonObject(text: string): Record<string, unknown> | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const value = JSON.parse(trimmed) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** Claude Code's JSON output: `hookSpecificOutput` (permissionDecision, additionalContext), or the older top-level `decision`. */
function outputOfJson(event: AnyHookEvent, json: Record<string, unknown>): HookOutput {
  const specific =
    typeof json.hookSpecificOutput === 'object' && json.hookSpecificOutput !== null
      ? (json.hookSpecificOutput as Record<string, unknown>)
      : {};
  const output: HookOutput = {};
  const context = str(specific.additionalContext);
  if (context) output.additionalContext = context;
  const systemMessage = str(json.systemMessage);
  if (systemMessage) output.systemMessage = systemMessage;
  // PermissionRequest answers the permission dialog: {"decision": {"behavior": "allow" | "deny", "message"}}.
  const requested =
    typeof specific.decision === 'object' && specific.decision !== null ? (specific.decision as Record<string, unknown>) : {};
  if (event === 'PermissionRequest' && (requested.behavior === 'allow' || requested.behavior === 'deny')) {
    output.decision = requested.behavior;
    const reason = str(requested.message);
    if (reason) output.reason = reason;
    return output;
  }
  const permission = specific.permissionDecision;
  if (event === 'PreToolUse' && (permission === 'allow' || permission === 'deny' || permission === 'ask')) {
    output.decision = permission;
    const reason = str(specific.permissionDecisionReason) ?? str(json.reason);
    if (reason) output.reason = reason;
    return output;
  }
  const legacy = json.decision;
  if (legacy === 'block' || (legacy === 'approve' && event === 'PreToolUse')) {
    output.decision = legacy === 'block' ? 'block' : 'allow';
    const reason = str(json.reason);
    if (reason) output.reason = reason;
  }
  return output;
}

/**
 * A hook's output (a function hook's return value, or a command's JSON) as a verdict. deny and
 * block both block; allow and ask only mean something before a tool call.
 */
export function toVerdict(event: AnyHookEvent, output: HookOutput): HookVerdict {
  const context = output.additionalContext ? capMessage(output.additionalContext) : undefined;
  const reason = output.reason ? capMessage(output.reason) : undefined;
  const shown = output.systemMessage ? capMessage(output.systemMessage) : undefined;
  // The user reads systemMessage where the hook gave one; the model reads reason and context.
  const extra = { ...(reason ? { reason } : {}), ...(context ? { context } : {}), ...(shown ? { message: shown } : {}) };
  // Events that decide permissions: PreToolUse before the rules' prompt, PermissionRequest in its place.
  const decides = event === 'PreToolUse' || event === 'PermissionRequest';
  switch (output.decision) {
    case 'deny':
    case 'block':
      // SessionStart cannot stop anything: its block is shown, as Claude Code does.
      if (event === 'SessionStart') return { decision: null, outcome: 'error', message: shown ?? reason ?? 'blocked', ...extra };
      return { decision: 'block', outcome: decides ? 'denied' : 'blocked', message: shown ?? reason, ...extra };
    case 'allow':
      return decides ? { decision: 'allow', outcome: 'allowed', ...extra } : { decision: null, outcome: 'ok', ...extra };
    case 'ask':
      return event === 'PreToolUse' ? { decision: 'ask', outcome: 'asked', ...extra } : { decision: null, outcome: 'ok', ...extra };
    case undefined:
      return { decision: null, outcome: 'ok', ...extra };
    default: {
      // A function hook written in JavaScript may return anything.
      return { decision: null, outcome: 'error', message: `unknown decision ${JSON.stringify(output.decision)}` };
    }
  }
}
