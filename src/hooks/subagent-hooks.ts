import type { HookEventName } from '../../machines/hooks.js';
import { hookEventsOf } from './config.js';
import type { ResolvedHook } from './types.js';

/** Events that belong to the person's own turn and session, not to a subagent's work (Claude Code runs none of them for one). */
const MAIN_ONLY = new Set(['Stop', 'UserPromptSubmit', 'SessionStart', 'SessionEnd']);

/**
 * The hooks a subagent runs, as Claude Code does: every tool hook (PreToolUse, PostToolUse: a
 * guard that blocks `rm -rf` for the main agent blocks it for a child) and the listeners, and
 * SubagentStop where the main agent runs Stop: the child's chart waits in the same state, and a
 * SubagentStop hook that blocks sends the child back to work. `events` is what the child's chart
 * is told has hooks (SubagentStop counts as its Stop).
 * @example subagentHooks(hooks).events // ['PreToolUse', 'Stop'] for a PreToolUse and a SubagentStop hook
 */
export function subagentHooks(hooks: readonly ResolvedHook[]): { hooks: ResolvedHook[]; events: HookEventName[] } {
  const kept = hooks.filter((h) => !MAIN_ONLY.has(h.event));
  const events = hookEventsOf(kept);
  if (kept.some((h) => h.event === 'SubagentStop')) events.push('Stop');
  return { hooks: kept, events };
}
