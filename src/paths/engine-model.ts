import type { AnyStateNode, EventObject, Snapshot, SnapshotFrom } from 'xstate';
import { statePath } from '../engine/step-adapter.js';
import { serializeSnapshot } from 'xstate/graph';
import { nearWindow } from '../../machines/context-budget.js';
import type { EngineInput } from '../../machines/engine-context.js';
import { HOOK_EVENTS, type HookOutcome } from '../../machines/hooks.js';
import { decidePermissionAction, queryEngine, toolHookDue, validateCallAction } from '../../machines/query-engine.js';
import type { ContentBlock, ModelResponse, PermissionDecision, ToolCall, ToolResult, Validation } from '../../machines/types.js';

/**
 * The model the paths are generated from: the real chart with small limits, a deterministic
 * validator and a permission policy read from the call's own input, and one event per outcome
 * of each invoked actor. Every event carries the name of its `variant`, so a path reads as a story
 * and a variant can be left out (PATHS_DROP=name) to show that the coverage check notices.
 */

export const LIMITS = { maxTurns: 2, maxToolCalls: 2, timeoutMs: 1_000, startedAt: 10_000 } as const;

/** A window the near-window answer (usage 900) passes 80 % of, and the other answers (15) never do. */
export const CONTEXT_WINDOW = 1000;
export const NEAR_WINDOW_USAGE = { input_tokens: 890, output_tokens: 10 };

/** Every event has hooks; the tool events' matchers take only calls marked `hooked`, Stop only answers marked so. */
export const INPUT: EngineInput = {
  sessionId: 'paths',
  userInput: 'do the task',
  ...LIMITS,
  contextWindow: CONTEXT_WINDOW,
  baseTokens: 0,
  hooks: HOOK_EVENTS,
  sessionStart: 'startup',
};

/** The model's stand-in for a settings matcher: a call whose input says `hooked: true`. */
export function hookMatches(call: ToolCall): boolean {
  return (call.input as { hooked?: unknown } | null)?.hooked === true;
}

/** A final answer the Stop hooks run for. */
export const HOOKED_ANSWER = 'All done. (hooked)';

export type Perm = 'allow' | 'ask' | 'deny' | 'plan';

/** "echo" with `{text: string}` is the only valid tool; "nope" does not exist. */
export function validateEcho(call: ToolCall): Validation {
  if (call.name !== 'echo') {
    return { ok: false, error: { code: 'TOOL_NOT_FOUND', message: `No tool named "${call.name}". Available tools: echo.` } };
  }
  const input = call.input as { text?: unknown } | null;
  if (typeof input?.text !== 'string') {
    return { ok: false, error: { code: 'TOOL_INPUT_INVALID', message: 'Invalid input for echo: input.text: must be string' } };
  }
  return { ok: true };
}

/** The call says what the policy answers: `input.perm`. */
export function policyFromInput(call: ToolCall): PermissionDecision {
  const perm = (call.input as { perm?: Perm }).perm ?? 'ask';
  switch (perm) {
    case 'allow':
      return { behavior: 'allow', decidedBy: 'test rule: allow' };
    case 'ask':
      return { behavior: 'ask', decidedBy: 'test rule: ask' };
    case 'deny':
      return { behavior: 'deny', decidedBy: 'test rule: deny', message: 'echo is denied here' };
    case 'plan':
      return { behavior: 'deny', decidedBy: 'mode: plan', continueWithFeedback: true, message: 'plan mode: describe, do not run' };
    default: {
      const unreachable: never = perm;
      return unreachable;
    }
  }
}

/** The chart as the paths see it: the two entry actions that carry rules and the hook matchers are replaced. */
export const testMachine = queryEngine.provide({
  actions: {
    validateCall: validateCallAction(validateEcho),
    decidePermission: decidePermissionAction(policyFromInput),
  },
  guards: {
    preToolUseDue: toolHookDue('PreToolUse', hookMatches),
    postToolUseDue: toolHookDue('PostToolUse', hookMatches),
    stopHooksDue: (_, params: { response: ModelResponse }) =>
      params.response.content.some((b) => b.type === 'text' && (b as { text: string }).text === HOOKED_ANSWER),
  },
});

export type EngineSnapshot = SnapshotFrom<typeof testMachine>;

/** An event of a generated path: a machine event, or the done/error of an invoked actor. */
export type PathEvent = EventObject & {
  variant: string;
  output?: ModelResponse | PermissionDecision | ToolResult | HookOutcome | null;
  error?: unknown;
  now?: number;
};

const usage = { input_tokens: 10, output_tokens: 5 };

function response(content: ContentBlock[], stopReason: string, extra: Partial<ModelResponse> = {}): ModelResponse {
  return { content, stopReason, usage, ...extra };
}

function toolUse(id: string, name: string, input: unknown): ContentBlock {
  return { type: 'tool_use', id, name, input };
}

function withCode(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

const done = (id: string, variant: string, output: PathEvent['output']): PathEvent => ({
  type: `xstate.done.actor.${id}`,
  variant,
  output,
});
const failed = (id: string, variant: string, error: unknown): PathEvent => ({ type: `xstate.error.actor.${id}`, variant, error });

/** What the model can answer; ids are unique per turn so every tool_use in a conversation is distinct. */
function modelEvents(turn: number): PathEvent[] {
  const id = (n: number) => `toolu_t${turn + 1}_${n}`;
  const echo = (n: number, perm: Perm) => toolUse(id(n), 'echo', { text: `hi ${n}`, perm });
  const hooked = (perm: Perm) => toolUse(id(1), 'echo', { text: 'hi 1', perm, hooked: true });
  return [
    done('callModel', 'text', response([{ type: 'text', text: 'All done.' }], 'end_turn')),
    done('callModel', 'text-hooked', response([{ type: 'text', text: HOOKED_ANSWER }], 'end_turn')),
    done('callModel', 'call-hooked', response([hooked('ask')], 'tool_use')),
    done('callModel', 'call-hooked-allow', response([hooked('allow')], 'tool_use')),
    done('callModel', 'call-hooked-deny', response([hooked('deny')], 'tool_use')),
    done('callModel', 'call-allow', response([echo(1, 'allow')], 'tool_use')),
    done('callModel', 'call-ask', response([echo(1, 'ask')], 'tool_use')),
    done('callModel', 'call-deny', response([echo(1, 'deny')], 'tool_use')),
    done('callModel', 'call-plan', response([echo(1, 'plan')], 'tool_use')),
    done('callModel', 'invalid-input', response([toolUse(id(1), 'echo', { text: 42, perm: 'allow' })], 'tool_use')),
    done('callModel', 'unknown-tool', response([toolUse(id(1), 'nope', { perm: 'allow' })], 'tool_use')),
    done('callModel', 'two-calls', response([echo(1, 'allow'), echo(2, 'ask')], 'tool_use')),
    done('callModel', 'truncated', response([echo(1, 'allow')], 'max_tokens', { truncatedToolUseIds: [id(1)] })),
    done('callModel', 'pause-turn', response([{ type: 'text', text: 'Still searching...' }], 'pause_turn')),
    done('callModel', 'call-near-window', response([echo(1, 'allow')], 'tool_use', { usage: NEAR_WINDOW_USAGE })),
    failed('callModel', 'model-error', withCode('529 overloaded_error after 2 retries')),
    failed('callModel', 'prompt-too-long', withCode('Invalid request (400): prompt is too long: 1200 tokens > 1000 maximum')),
  ];
}

/**
 * The summary's outcomes. The output here is a stand-in: the replay swaps in a real cut of its own
 * conversation (the traversal's message array is shared by every path and means nothing).
 */
const compactEvents: PathEvent[] = [
  done('compactContext', 'compacted', null),
  failed('compactContext', 'compact-fails', withCode('529 overloaded_error after 2 retries')),
];

const promptEvents: PathEvent[] = [
  done('askPermission', 'user-allows', { behavior: 'allow', decidedBy: 'user: yes' }),
  done('askPermission', 'user-denies', { behavior: 'deny', decidedBy: 'user: no', message: 'not now' }),
  done('askPermission', 'user-denies-with-feedback', {
    behavior: 'deny',
    decidedBy: 'user: no, with feedback',
    continueWithFeedback: true,
    message: 'use a shorter text',
  }),
  failed('askPermission', 'prompt-fails', withCode('stdin closed')),
];

const toolEvents: PathEvent[] = [
  done('executeTool', 'tool-ok', { content: 'echo: hi', isError: false }),
  done('executeTool', 'tool-is-error', { content: 'no such file', isError: true }),
  failed('executeTool', 'tool-input-invalid', withCode('input.text: too long', 'TOOL_INPUT_INVALID')),
  failed('executeTool', 'tool-crash', withCode('disk on fire')),
];

const hook = (decision: HookOutcome['decision'], extra: Partial<HookOutcome> = {}): HookOutcome => ({
  decision,
  ...(decision ? { decidedBy: `hook: ${decision}` } : {}),
  ...extra,
});

/** The answers of each event's hooks, by the id of the child that runs them. */
const hookEvents: Record<string, PathEvent[]> = {
  sessionStartHooks: [
    done('sessionStartHooks', 'session-start-context', hook(null, { context: 'the build command is make' })),
    failed('sessionStartHooks', 'session-start-fails', withCode('runner crashed')),
  ],
  userPromptSubmitHooks: [
    done('userPromptSubmitHooks', 'prompt-hook-ok', hook(null)),
    done('userPromptSubmitHooks', 'prompt-hook-blocks', hook('block', { reason: 'not this prompt' })),
    failed('userPromptSubmitHooks', 'prompt-hook-fails', withCode('runner crashed')),
  ],
  preToolUseHooks: [
    done('preToolUseHooks', 'pre-hook-allows', hook('allow')),
    done('preToolUseHooks', 'pre-hook-asks', hook('ask')),
    done('preToolUseHooks', 'pre-hook-blocks', hook('block', { reason: 'not with this input' })),
    done('preToolUseHooks', 'pre-hook-silent', hook(null)),
    failed('preToolUseHooks', 'pre-hook-fails', withCode('runner crashed')),
  ],
  postToolUseHooks: [
    done('postToolUseHooks', 'post-hook-ok', hook(null)),
    done('postToolUseHooks', 'post-hook-blocks', hook('block', { reason: 'run the linter' })),
    failed('postToolUseHooks', 'post-hook-fails', withCode('runner crashed')),
  ],
  stopHooks: [
    done('stopHooks', 'stop-hook-ok', hook(null)),
    done('stopHooks', 'stop-hook-blocks', hook('block', { reason: 'tests still fail' })),
    failed('stopHooks', 'stop-hook-fails', withCode('runner crashed')),
  ],
};

const rootEvents: PathEvent[] = [
  { type: 'ABORT', variant: 'abort' },
  { type: 'CLOCK.TICK', variant: 'tick-late', now: LIMITS.startedAt + LIMITS.timeoutMs },
  { type: 'CLOCK.TICK', variant: 'tick-early', now: LIMITS.startedAt + LIMITS.timeoutMs - 1 },
];

/**
 * The events the model offers in a snapshot: the outcomes of the actor it waits on, and the root's.
 * `drop` leaves variants out (the tests' PATHS_DROP), to show that the coverage check notices.
 */
export function eventsFor(snapshot: EngineSnapshot, drop: ReadonlySet<string> = new Set()): PathEvent[] {
  if (snapshot.status !== 'active') return [];
  return [...waitingOn(snapshot), ...rootEvents].filter((e) => !drop.has(e.variant));
}

/** The outcomes of each actor a state invokes, by the invocation's id. */
function outcomesOf(actorId: string, turn: number): PathEvent[] {
  if (actorId === 'callModel') return modelEvents(turn);
  if (actorId === 'askPermission') return promptEvents;
  if (actorId === 'compactContext') return compactEvents;
  if (actorId === 'executeTool') return toolEvents;
  return hookEvents[actorId] ?? [];
}

/** The ids of the actors the active state invokes (read from the chart: every wait is a state that invokes one). */
export function invokedIn(snapshot: EngineSnapshot): string[] {
  let node: AnyStateNode = testMachine.root;
  for (const name of statePath(snapshot.value).split('.')) node = node.states[name] as AnyStateNode;
  return node.invoke.map((i) => i.id);
}

/** The outcomes of what the snapshot waits for: the actors its state invokes. */
function waitingOn(snapshot: EngineSnapshot): PathEvent[] {
  return invokedIn(snapshot).flatMap((id) => outcomesOf(id, snapshot.context.turn));
}

export const ALL_VARIANTS = [
  ...modelEvents(0),
  ...promptEvents,
  ...toolEvents,
  ...compactEvents,
  ...Object.values(hookEvents).flat(),
  ...rootEvents,
].map((e) => e.variant);

/**
 * What decides the future of a snapshot. `messages` is left out: it is one array appended in place
 * and shared by every snapshot of a traversal, and no guard reads it.
 */
export function routingView(snapshot: EngineSnapshot) {
  const c = snapshot.context;
  return {
    value: snapshot.value,
    status: snapshot.status,
    turn: c.turn,
    toolCallCount: c.toolCallCount,
    queue: c.queue,
    truncatedIds: c.truncatedIds,
    results: c.results.map((r) => ({ id: r.tool_use_id, isError: r.is_error === true })),
    current: c.current && {
      id: c.current.call.id,
      truncated: c.current.truncated,
      validation: c.current.validation,
      decision: c.current.decision,
      error: c.current.error?.code ?? null,
      preToolUse: c.current.preToolUse?.decision ?? (c.current.preToolUse ? 'none' : null),
      postToolUse: c.current.postToolUse?.decision ?? (c.current.postToolUse ? 'none' : null),
    },
    sessionStart: c.hooks.sessionStart,
    promptHook: c.prompt.hook?.decision ?? (c.prompt.hook ? 'none' : null),
    stopHookActive: c.hooks.stopActive,
    modelError: c.modelError?.code ?? null,
    stopReason: c.stopReason,
    // The token count itself differs by result text; what routes is whether compaction is due.
    budget: { near: nearWindow(c.budget, c.turn), compactedAtTurn: c.budget.compactedAtTurn },
  };
}

export function serializeState(snapshot: EngineSnapshot): string {
  const view: Snapshot<unknown> & { value: unknown; context: unknown } = {
    status: 'active',
    output: undefined,
    error: undefined,
    value: snapshot.value,
    context: routingView(snapshot),
  };
  return serializeSnapshot(view);
}
