import type { EventObject } from 'xstate';
import { toolFailure } from '../../machines/call-steps.js';
import type { HookOutcome } from '../../machines/hooks.js';
import { isRecoverable } from '../../machines/recovery.js';
import type { ContentBlock, EngineErrorCode, ModelResponse, PermissionDecision, ToolResult } from '../../machines/types.js';
import type { EngineOutput } from '../../machines/engine-context.js';

/**
 * What each invoked actor of the chart can answer in the generated paths, one event per outcome,
 * each named by its `variant` so a path reads as a story (`call-allow > tool-ok > text`).
 */

/** An event of a generated path: a machine event, or the done/error of an invoked actor. */
export type PathEvent = EventObject & {
  variant: string;
  output?: ModelResponse | PermissionDecision | ToolResult | HookOutcome | EngineOutput | null;
  error?: unknown;
  now?: number;
  reason?: 'timeout';
};

export type Perm = 'allow' | 'ask' | 'deny' | 'plan' | 'throw';

export const LIMITS = { maxTurns: 2, maxToolCalls: 2, timeoutMs: 1_000, startedAt: 10_000 } as const;

/** A window the near-window answer (usage 900) passes 80 % of, and the other answers (15) never do. */
export const CONTEXT_WINDOW = 1000;
export const NEAR_WINDOW_USAGE = { input_tokens: 890, output_tokens: 10 };

/** A final answer the Stop hooks run for. */
export const HOOKED_ANSWER = 'All done. (hooked)';

/** Every error code, checked by the compiler against the type: the recoverable ones are read from recovery.ts. */
const ERROR_CODES = Object.keys({
  TOOL_INPUT_INVALID: 1,
  TOOL_NOT_FOUND: 1,
  TOOL_INPUT_TRUNCATED: 1,
  TOOL_FAILED: 1,
  MODEL_ERROR: 1,
  PERMISSION_DENIED: 1,
} satisfies Record<EngineErrorCode, 1>) as EngineErrorCode[];

export function withCode(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

/** Codes a tool may throw that send the call back to the model (isRecoverable, of what toolFailure keeps). */
export const TOOL_RECOVERABLE_CODES = ERROR_CODES.filter((code) => isRecoverable(toolFailure(withCode('x', code)).code));
/** Codes that send a call back to the model wherever they are found (recovery.ts). */
export const RECOVERABLE_CODES = ERROR_CODES.filter(isRecoverable);

const usage = { input_tokens: 10, output_tokens: 5 };

function response(content: ContentBlock[], stopReason: string, extra: Partial<ModelResponse> = {}): ModelResponse {
  return { content, stopReason, usage, ...extra };
}

function toolUse(id: string, name: string, input: unknown): ContentBlock {
  return { type: 'tool_use', id, name, input };
}

const done = (id: string, variant: string, output: PathEvent['output']): PathEvent => ({
  type: `xstate.done.actor.${id}`,
  variant,
  output,
});
const failed = (id: string, variant: string, error: unknown): PathEvent => ({ type: `xstate.error.actor.${id}`, variant, error });

/** What the model can answer; ids are unique per turn so every tool_use in a conversation is distinct. */
export function modelEvents(turn: number): PathEvent[] {
  const id = (n: number) => `toolu_t${turn + 1}_${n}`;
  const echo = (n: number, perm: Perm) => toolUse(id(n), 'echo', { text: `hi ${n}`, perm });
  const hooked = (perm: Perm) => toolUse(id(1), 'echo', { text: 'hi 1', perm, hooked: true });
  const safe = (n: number, perm: Perm) => toolUse(id(n), 'echo', { text: `hi ${n}`, perm, safe: true });
  // A task call runs as a child chart (execute_tool.subagent, or a batch's child).
  const task = (n: number, perm: Perm, extra: Record<string, unknown> = {}) =>
    toolUse(id(n), 'task', { description: 'look', prompt: 'look it up', subagent_type: 'scout', perm, ...extra });
  return [
    done('callModel', 'text', response([{ type: 'text', text: 'All done.' }], 'end_turn')),
    done('callModel', 'text-hooked', response([{ type: 'text', text: HOOKED_ANSWER }], 'end_turn')),
    done('callModel', 'call-hooked', response([hooked('ask')], 'tool_use')),
    done('callModel', 'call-hooked-allow', response([hooked('allow')], 'tool_use')),
    done('callModel', 'call-hooked-deny', response([hooked('deny')], 'tool_use')),
    done('callModel', 'call-hooked-policy-throws', response([hooked('throw')], 'tool_use')),
    done('callModel', 'call-allow', response([echo(1, 'allow')], 'tool_use')),
    done('callModel', 'call-ask', response([echo(1, 'ask')], 'tool_use')),
    done('callModel', 'call-deny', response([echo(1, 'deny')], 'tool_use')),
    done('callModel', 'call-plan', response([echo(1, 'plan')], 'tool_use')),
    done('callModel', 'policy-throws', response([echo(1, 'throw')], 'tool_use')),
    done('callModel', 'invalid-input', response([toolUse(id(1), 'echo', { text: 42, perm: 'allow' })], 'tool_use')),
    done('callModel', 'unknown-tool', response([toolUse(id(1), 'nope', { perm: 'allow' })], 'tool_use')),
    done('callModel', 'validator-throws', response([toolUse(id(1), 'broken', { perm: 'allow' })], 'tool_use')),
    done('callModel', 'two-calls', response([echo(1, 'allow'), echo(2, 'ask')], 'tool_use')),
    // A hooked call that another follows: no batch is planned (a hook ends the run), its hooks run first.
    done('callModel', 'hooked-then-call', response([hooked('allow'), echo(2, 'allow')], 'tool_use')),
    // Read-only calls the rules allow run together; a plan-mode refusal before them goes back first.
    done('callModel', 'batch', response([safe(1, 'allow'), safe(2, 'allow')], 'tool_use')),
    done('callModel', 'refused-then-batch', response([echo(1, 'plan'), safe(2, 'allow'), safe(3, 'allow')], 'tool_use')),
    done('callModel', 'denied-before-batch', response([echo(1, 'deny'), safe(2, 'allow'), safe(3, 'allow')], 'tool_use')),
    // The parent-child interplay: a child started at once, after the person allowed it, after a PreToolUse hook.
    done('callModel', 'call-task', response([task(1, 'allow')], 'tool_use')),
    done('callModel', 'call-task-ask', response([task(1, 'ask')], 'tool_use')),
    done('callModel', 'call-task-hooked', response([task(1, 'ask', { hooked: true })], 'tool_use')),
    // A batch of a read and a subagent: two children, each with its own status and outcome.
    done('callModel', 'batch-with-task', response([safe(1, 'allow'), task(2, 'allow', { safe: true })], 'tool_use')),
    done('callModel', 'truncated', response([echo(1, 'allow')], 'max_tokens', { truncatedToolUseIds: [id(1)] })),
    done('callModel', 'pause-turn', response([{ type: 'text', text: 'Still searching...' }], 'pause_turn')),
    done('callModel', 'call-near-window', response([echo(1, 'allow')], 'tool_use', { usage: NEAR_WINDOW_USAGE })),
    // A paused turn near the window: the next request waits for a summary first (call_model.checking_limits).
    done(
      'callModel',
      'pause-turn-near-window',
      response([{ type: 'text', text: 'Still searching...' }], 'pause_turn', { usage: NEAR_WINDOW_USAGE }),
    ),
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

const kebab = (code: string) => code.toLowerCase().replaceAll('_', '-');

/** One failure per code a tool may throw that the model can fix (`tool-input-invalid`, `tool-not-found`), and a crash. */
const toolEvents: PathEvent[] = [
  done('executeTool', 'tool-ok', { content: 'echo: hi', isError: false }),
  done('executeTool', 'tool-is-error', { content: 'no such file', isError: true }),
  ...TOOL_RECOVERABLE_CODES.map((code) => failed('executeTool', kebab(code), withCode(`the tool says ${code}`, code))),
  failed('executeTool', 'tool-crash', withCode('disk on fire')),
];

/** A child chart's output (the answer comes back as its done event's output). */
function childOutput(reason: EngineOutput['reason'], agent: string): EngineOutput {
  return {
    reason,
    turn: 1,
    toolCallCount: 1,
    usage,
    error: null,
    decision: null,
    stoppedCall: null,
    modelStopReason: reason === 'final_answer' ? 'end_turn' : 'tool_use',
    answer: reason === 'final_answer' ? 'found it' : 'still looking',
    agent,
  };
}

/** What a subagent (a child chart) can come to: an answer, a stop on the task's limits, an agent that does not exist, a crash. */
export function subagentEvents(id: string, agent: string, prefix = ''): PathEvent[] {
  return [
    done(id, `${prefix}child-answers`, childOutput('final_answer', agent)),
    done(id, `${prefix}child-stops-on-limit`, childOutput('max_tool_calls', agent)),
    ...(prefix
      ? []
      : [
          failed(id, 'child-unknown-agent', withCode('No agent named "scout". Available: general-purpose.', 'TOOL_INPUT_INVALID')),
          failed(id, 'child-crashes', withCode('the child chart threw')),
        ]),
  ];
}

/** What the i-th call of a batch can come to, as its own child: a tool's result, is_error, a failure the model can fix, a crash. */
export function batchToolEvents(index: number): PathEvent[] {
  const id = `batch-${index}`;
  return [
    done(id, `${id}-tool-ok`, { content: 'echo: hi', isError: false }),
    done(id, `${id}-tool-is-error`, { content: 'no such file', isError: true }),
    failed(id, `${id}-tool-invalid`, withCode('the tool says TOOL_INPUT_INVALID', 'TOOL_INPUT_INVALID')),
    failed(id, `${id}-tool-crash`, withCode('disk on fire')),
  ];
}

const hook = (decision: HookOutcome['decision'], extra: Partial<HookOutcome> = {}): HookOutcome => ({
  decision,
  ...(decision ? { decidedBy: `hook: ${decision}` } : {}),
  ...extra,
});

/** The answers of each event's hooks, by the id of the invocation that runs them. */
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

/** Handled at the root, in every state: abort, and the deadline's tick on both sides of the timeout. */
export const rootEvents: PathEvent[] = [
  { type: 'ABORT', variant: 'abort' },
  { type: 'ABORT', variant: 'abort-parent-timeout', reason: 'timeout' },
  { type: 'CLOCK.TICK', variant: 'tick-late', now: LIMITS.startedAt + LIMITS.timeoutMs },
  { type: 'CLOCK.TICK', variant: 'tick-early', now: LIMITS.startedAt + LIMITS.timeoutMs - 1 },
];

/**
 * The outcomes of the actor an invocation runs, by the invocation's id. A wait the model has no
 * outcomes for is an error here, not a silent dead end: a new wait in the chart needs its events.
 */
export function outcomesOf(invocationId: string, turn: number): PathEvent[] {
  if (invocationId === 'callModel') return modelEvents(turn);
  if (invocationId === 'askPermission') return promptEvents;
  if (invocationId === 'compactContext') return compactEvents;
  if (invocationId === 'executeTool') return toolEvents;
  const hooks = hookEvents[invocationId];
  if (!hooks) throw new Error(`the path model has no outcomes for the invoked actor "${invocationId}"`);
  return hooks;
}

export const ALL_VARIANTS = [
  ...modelEvents(0),
  ...promptEvents,
  ...toolEvents,
  ...subagentEvents('subagent', 'main/task-1'),
  ...batchToolEvents(0),
  ...batchToolEvents(1),
  ...subagentEvents('batch-1', 'main/task-1', 'batch-1-'),
  ...compactEvents,
  ...Object.values(hookEvents).flat(),
  ...rootEvents,
].map((e) => e.variant);
