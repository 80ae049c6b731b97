import { ruleFailed, withDecision } from './call-steps.js';
import { workingCall, type EngineContext } from './engine-context.js';
import { withHookVerdict, withPostToolUseNote, type HookEventName, type HookOutcome, type HookRunInput } from './hooks.js';
import type { Message, PermissionDecision, ToolCall } from './types.js';

/**
 * What the chart's hook actions do with the context: the input a hook run gets, and how each
 * event's answer is recorded. Pure functions of the context; query-engine.ts wraps them in assigns.
 */

/** The chart's own input for one event's hooks; src adds the session, transcript path and cwd. */
export function hookInput(context: EngineContext, event: HookEventName): HookRunInput {
  const { turn } = context;
  switch (event) {
    case 'SessionStart':
      return { event, turn, source: context.hooks.sessionStart ?? 'startup' };
    case 'UserPromptSubmit':
      return { event, turn, prompt: context.userInput };
    case 'PreToolUse':
      return { event, turn, call: workingCall(context).call };
    case 'PostToolUse': {
      const result = context.results.at(-1);
      return { event, turn, call: workingCall(context).call, ...(result ? { result } : {}) };
    }
    case 'Stop':
      return { event, turn, stopHookActive: context.hooks.stopActive };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** Whether hooks of `event` are configured at all (the chart's default guard; src adds matchers). */
export function hasHooks(context: EngineContext, event: HookEventName): boolean {
  const { events } = context.hooks;
  return events.length > 0 && events.includes(event);
}

/**
 * The guard that says a tool event's hooks are due for the current call: configured, and (src
 * provides `matches`, the settings' matchers) taking the call's tool.
 * @example toolHookDue('PreToolUse', (call) => call.name === 'bash')
 */
export function toolHookDue(event: 'PreToolUse' | 'PostToolUse', matches: (call: ToolCall, context: EngineContext) => boolean) {
  return ({ context }: { context: EngineContext }): boolean =>
    context.current !== null && hasHooks(context, event) && matches(context.current.call, context);
}

export function sessionStartAnswered(context: EngineContext, outcome: HookOutcome): Partial<EngineContext> {
  const { prompt } = context;
  return { prompt: { ...prompt, context: outcome.context ? [...prompt.context, outcome.context] : prompt.context } };
}

export function userPromptAnswered(context: EngineContext, outcome: HookOutcome): Partial<EngineContext> {
  const { prompt } = context;
  const added = outcome.context && outcome.decision !== 'block' ? [...prompt.context, outcome.context] : prompt.context;
  return { prompt: { ...prompt, hook: outcome, context: added } };
}

/** The rules decided on the way into ask_permission; the hooks' answer is combined with that decision. */
export function preToolUseAnswered(context: EngineContext, outcome: HookOutcome): Partial<EngineContext> {
  const current = workingCall(context);
  // The rules themselves failed: no hook answer can stand in for them (the ruleFailed guard stops next).
  if (ruleFailed(current)) return { current: { ...current, preToolUse: outcome } };
  const rules: PermissionDecision = current.decision ?? { behavior: 'ask', decidedBy: 'no decision yet' };
  return { current: withDecision({ ...current, preToolUse: outcome }, withHookVerdict(rules, outcome)) };
}

/** The tool already ran: a block or added context is appended to the result the model gets. */
export function postToolUseAnswered(context: EngineContext, outcome: HookOutcome): Partial<EngineContext> {
  const current = workingCall(context);
  const last = context.results.at(-1);
  const results = last ? [...context.results.slice(0, -1), withPostToolUseNote(last, outcome)] : context.results;
  return { results, current: { ...current, postToolUse: outcome } };
}

/** What the model is told when a blocking Stop hook sends it back to work. */
export function stopHookMessage(outcome: HookOutcome): Message {
  return {
    role: 'user',
    content: [{ type: 'text', text: `A Stop hook did not let you stop yet: ${outcome.reason || 'no reason given'}` }],
  };
}
