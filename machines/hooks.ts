import type { PermissionDecision, ToolCall, ToolResultBlock } from './types.js';

/**
 * Hooks as the chart sees them: which events have any, what one event's hooks answered, and how
 * that answer changes a permission decision. Pure; src/hooks runs the hooks and merges their answers.
 */

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionStart'] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** The ids of the invocations that run one event's hooks, each in the state that waits for them (`xstate.done.actor.<id>`). */
export const HOOK_ACTOR_IDS = {
  PreToolUse: 'preToolUseHooks',
  PostToolUse: 'postToolUseHooks',
  UserPromptSubmit: 'userPromptSubmitHooks',
  Stop: 'stopHooks',
  SessionStart: 'sessionStartHooks',
} as const satisfies Record<HookEventName, string>;

/** What the hooks of one event answered together. */
export interface HookOutcome {
  /**
   * `block`: a hook exited 2 (or said block / deny): the call, the prompt or the stop does not go ahead.
   * `allow` / `ask`: a PreToolUse hook's permission decision. null: no opinion, things go on.
   */
  decision: 'allow' | 'ask' | 'block' | null;
  /** The hook that decided, `hook PreToolUse: <command>`; set with `decision`. */
  decidedBy?: string;
  /** Why (a block's stderr, a decision's reason): for a block, what the model or the user is told. */
  reason?: string;
  /** Text the hooks add to the conversation (SessionStart / UserPromptSubmit stdout, additionalContext). */
  context?: string;
}

/** What a hook run is given by the chart; src adds session_id, transcript_path and cwd. */
export interface HookRunInput {
  event: HookEventName;
  /** The model round, for the evidence. */
  turn: number;
  call?: ToolCall;
  result?: ToolResultBlock;
  prompt?: string;
  /** Stop: the model is already continuing because a Stop hook blocked. */
  stopHookActive?: boolean;
  /** SessionStart: a new session, or one resumed. */
  source?: 'startup' | 'resume';
}

/**
 * The permission decision once the PreToolUse hooks have answered, as Claude Code does it: a block
 * refuses the call and the model is told why (it can adapt); allow skips the person's prompt; ask
 * forces it; no opinion leaves the rules' decision. A deny from the rules always stands.
 * @example withHookVerdict({ behavior: 'ask', decidedBy: 'default' }, { decision: 'allow', decidedBy: 'hook PreToolUse: ./ok.sh' }).behavior // 'allow'
 */
export function withHookVerdict(rules: PermissionDecision, outcome: HookOutcome): PermissionDecision {
  if (outcome.decision === null || rules.behavior === 'deny') return rules;
  const decidedBy = outcome.decidedBy ?? 'hook PreToolUse';
  switch (outcome.decision) {
    case 'block':
      return {
        behavior: 'deny',
        decidedBy,
        continueWithFeedback: true,
        message: `Blocked by a PreToolUse hook${outcome.reason ? `: ${outcome.reason}` : '.'}`,
      };
    case 'allow':
      return { behavior: 'allow', decidedBy, ...(outcome.reason ? { message: outcome.reason } : {}) };
    case 'ask':
      return { behavior: 'ask', decidedBy, ...(outcome.reason ? { message: outcome.reason } : {}) };
    default: {
      const unreachable: never = outcome.decision;
      return unreachable;
    }
  }
}

/** The decision that stops a task whose prompt a UserPromptSubmit hook blocked. */
export function promptBlockedDecision(outcome: HookOutcome): PermissionDecision {
  return {
    behavior: 'deny',
    decidedBy: outcome.decidedBy ?? 'hook UserPromptSubmit',
    message: `The prompt was blocked by a UserPromptSubmit hook${outcome.reason ? `: ${outcome.reason}` : '.'}`,
  };
}

/** A PostToolUse hook's block (the tool already ran) and added context, appended to the result the model gets. */
export function withPostToolUseNote(result: ToolResultBlock, outcome: HookOutcome): ToolResultBlock {
  const notes = [
    ...(outcome.decision === 'block' ? [`PostToolUse hook: ${outcome.reason || 'blocked'}`] : []),
    ...(outcome.context ? [outcome.context] : []),
  ];
  if (notes.length === 0) return result;
  return { ...result, content: `${result.content}\n\n${notes.join('\n\n')}` };
}

/** An outcome for a hook runner that failed as a whole: no opinion (a broken hook never blocks). */
export const NO_OPINION: HookOutcome = { decision: null };
