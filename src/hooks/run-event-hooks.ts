import type { HookOutcome } from '../../machines/hooks.js';
import type { ToolCall } from '../../machines/types.js';
import type { CommandSandbox } from '../tools/types.js';
import type { AnyHookEvent } from './events.js';
import { hooksFor, runHooks, type HookSession } from './run-hooks.js';
import type { HookRunReport, ResolvedHook } from './types.js';

/**
 * Runs the hooks of an event outside the chart's five: SessionEnd where a session ends, and
 * PreCompact (`{trigger: "auto" | "manual", custom_instructions}`), Notification
 * (`{message, notification_type}`) and PermissionRequest (with the call) once the
 * chart has their moment. The matcher is matched against the tool (PermissionRequest), or the
 * trigger / reason / notification type, as in Claude Code; `fields` go into the stdin JSON.
 * @example await runEventHooks({ hooks, event: 'SessionEnd', fields: { reason: 'other' }, session, signal, report })
 */
export async function runEventHooks(options: {
  hooks: readonly ResolvedHook[];
  event: AnyHookEvent;
  fields?: Record<string, unknown>;
  call?: ToolCall;
  session: HookSession;
  signal: AbortSignal;
  report: (report: HookRunReport) => void;
  sandbox?: CommandSandbox;
  turn?: number;
}): Promise<HookOutcome> {
  const input = {
    event: options.event,
    turn: options.turn ?? 0,
    ...(options.call ? { call: options.call } : {}),
    ...(options.fields ? { fields: options.fields } : {}),
  };
  if (hooksFor(options.hooks, input, options.session).length === 0) return { decision: null };
  return runHooks({
    hooks: options.hooks,
    input,
    session: options.session,
    signal: options.signal,
    report: options.report,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
}
