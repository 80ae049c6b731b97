import { estimateMessages, type CompactionOutcome, type ContextBudget } from './context-budget.js';
import { promptBlockedDecision, type HookEventName, type HookOutcome } from './hooks.js';
import type { BatchCall } from './batch-steps.js';
import type {
  EngineError,
  Message,
  PermissionDecision,
  StopReason,
  ToolCall,
  ToolResult,
  ToolResultBlock,
  Usage,
  Validation,
} from './types.js';

/**
 * The tool call being worked on, from validation to its result. It is replaced whole when the
 * next call starts (and cleared when a new model round starts), so nothing one call found out
 * (its validation, decision or error) can leak into another call or into the reason for a stop.
 */
export interface CurrentCall {
  call: ToolCall;
  /** The model was cut off (max_tokens) while writing this call's input. */
  truncated: boolean;
  /** null until validate_tool has checked the input. */
  validation: Validation | null;
  /** null until ask_permission has decided. */
  decision: PermissionDecision | null;
  /** Why this call went wrong: invalid input, refused, or failed while running. */
  error: EngineError | null;
  /** What the PreToolUse hooks answered; null until they have (or when none match the call). */
  preToolUse: HookOutcome | null;
  /** What the PostToolUse hooks answered; null until they have (or when none match the call). */
  postToolUse: HookOutcome | null;
}

/** This task's prompt: what ran before it was sent (SessionStart, UserPromptSubmit). */
export interface PromptState {
  /** What the UserPromptSubmit hooks answered; a block stops the task before the prompt is sent. */
  hook: HookOutcome | null;
  /** Text the SessionStart and UserPromptSubmit hooks add to the prompt's message. */
  context: readonly string[];
}

/**
 * Everything one task knows: counters, ids and the call being worked on, each replaced whole,
 * never changed in place (a snapshot stays what it was; the tests run with the context deep-frozen).
 * The conversation is not here: the chart emits each `message` (and `compacted`) and src/engine
 * appends it to the conversation it keeps, which the model and summary actors read.
 * Keep it at 19 top-level fields or fewer (group new ones in records): XState's assign copies the
 * context with Object.assign, which V8 does ~15x slower for objects of 20 properties or more
 * (measured on Node 20: 0.35 us vs 5 us per copy, several copies per round).
 */
export interface EngineContext {
  userInput: string;
  /** Model rounds completed. */
  turn: number;
  maxTurns: number;
  /** Tool executions, successful or not. */
  toolCallCount: number;
  maxToolCalls: number;
  /** When the task started (the injected clock) and how long it may take. */
  deadline: { startedAt: number; timeoutMs: number };
  /** The tool calls of the last response, worked through in order. */
  queue: ToolCall[];
  /** Ids of queued calls whose input the model was cut off writing. */
  truncatedIds: string[];
  /** One result per call already worked through; `results.length` is the queue index of `current`. */
  results: ToolResultBlock[];
  current: CurrentCall | null;
  /** The calls from `current` on that run together (append_tool_result.batch); empty when one call runs at a time. */
  batch: BatchCall[];
  /** Why the last model request failed (the task then stops with model_error). */
  modelError: EngineError | null;
  /** The last answer: the API's stop_reason and its text (a child's answer is its output). */
  lastResponse: { stopReason: string | null; text: string };
  usage: Usage;
  stopReason: StopReason | null;
  prompt: PromptState;
  /** How full the context window is, and whether a compaction is due. */
  budget: ContextBudget;
  /**
   * Which events have hooks configured (data only; src runs them; empty: no hook ever runs),
   * whether a Stop hook already sent the model back (Stop hooks then get `stop_hook_active: true`),
   * and what this task tells SessionStart hooks (null: the session already started in this run).
   */
  hooks: { events: readonly HookEventName[]; stopActive: boolean; sessionStart: SessionStartSource | null };
  /**
   * This agent's path in the task's tree (`main`, `main/task-1`), how many children it has started
   * (their numbers), and its `handle` (the input's; null without one): an inert key the chart never reads,
   * by which src/engine's one provided chart finds this agent's rules (guards get only the context).
   */
  agent: { path: string; children: number; handle: object | null };
}

/** What SessionStart hooks are told: a new session, or one resumed. */
export type SessionStartSource = 'startup' | 'resume';

export interface EngineInput {
  sessionId: string;
  userInput: string;
  /** An earlier conversation to continue: measured once for the window (the engine keeps it and appends what the chart emits). */
  messages?: readonly Message[];
  maxTurns: number;
  maxToolCalls: number;
  timeoutMs: number;
  startedAt: number;
  /** Prompt tokens the model takes; absent or null: the conversation is never compacted. */
  contextWindow?: number | null;
  /** Estimated tokens of what every request carries besides the messages (system prompt, tools). */
  baseTokens?: number;
  /** The events that have hooks configured; absent or empty: no hook runs and no hook guard holds. */
  hooks?: readonly HookEventName[];
  /**
   * The run's first task of a session opens it: SessionStart hooks run, told `startup` or `resume`.
   * Absent or null: a later task of the same run, and SessionStart does not run again.
   */
  sessionStart?: SessionStartSource | null;
  /** This agent's path (`main/task-1` for a subagent, its `systemId`); default `main`. */
  agent?: string;
  /** An inert key src/engine finds this agent's rules by (one chart serves every agent of every task); kept as `agent.handle`. */
  handle?: object;
}

/** What the chart emits as it changes the conversation; src/engine writes each to the transcript, in order. */
export type EngineEmitted =
  | { type: 'message'; message: Message }
  /** The conversation's first `outcome.removed` messages become `outcome.summary`. */
  | { type: 'compacted'; outcome: NonNullable<CompactionOutcome> };

export interface EngineOutput {
  reason: StopReason;
  turn: number;
  toolCallCount: number;
  usage: Usage;
  error: EngineError | null;
  decision: PermissionDecision | null;
  /** The call being worked on when the task stopped, if any. */
  stoppedCall: ToolCall | null;
  /** The API's stop_reason of the last response (end_turn, max_tokens, refusal...). */
  modelStopReason: string | null;
  /** The text of the last answer: a child's answer to its parent. */
  answer: string;
  /** The agent path that ran (`main/task-1`). */
  agent: string;
}

/**
 * The events sent to the chart from outside, and the done/error events of the children it spawns
 * (a subagent, a batch's calls); invoked actors answer with XState's done/error events, typed by XState.
 */
export type EngineEvent = AbortEvent | { type: 'CLOCK.TICK'; now: number } | ChildEvent;

/**
 * Stop now: Ctrl-C, a signal, the library's AbortSignal, or a parent leaving the state that waits
 * for this child. A parent that stops because the task's time is up says so (`reason: 'timeout'`),
 * so the child's evidence names the same stop as the parent's.
 */
export type AbortEvent = { type: 'ABORT'; reason?: 'timeout' };

/** A spawned child answered: `subagent` (one task call), or `batch-<i>` (the batch's i-th call). */
export type ChildEvent =
  | { type: 'xstate.done.actor.subagent'; output: EngineOutput }
  | { type: `xstate.done.actor.batch-${number}`; output: ToolResult | EngineOutput }
  | { type: `xstate.error.actor.${'subagent' | `batch-${number}`}`; error: unknown };

export function initialContext(input: EngineInput): EngineContext {
  return {
    userInput: input.userInput,
    turn: 0,
    maxTurns: input.maxTurns,
    toolCallCount: 0,
    maxToolCalls: input.maxToolCalls,
    deadline: { startedAt: input.startedAt, timeoutMs: input.timeoutMs },
    queue: [],
    truncatedIds: [],
    results: [],
    current: null,
    batch: [],
    modelError: null,
    lastResponse: { stopReason: null, text: '' },
    usage: { input_tokens: 0, output_tokens: 0 },
    stopReason: null,
    prompt: { hook: null, context: [] },
    budget: {
      window: input.contextWindow ?? null,
      // A resumed conversation is measured once; from then on the counters follow each append.
      tokens: input.contextWindow ? (input.baseTokens ?? 0) + estimateMessages(input.messages ?? []) : 0,
      compactedAtTurn: null,
    },
    hooks: { events: input.hooks ?? [], stopActive: false, sessionStart: input.sessionStart ?? null },
    agent: { path: input.agent ?? 'main', children: 0, handle: input.handle ?? null },
  };
}

/** The next call of the queue as a fresh record: nothing checked or decided yet. */
export function nextCall(context: EngineContext): CurrentCall | null {
  const call = context.queue[context.results.length];
  return call
    ? {
        call,
        truncated: context.truncatedIds.includes(call.id),
        validation: null,
        decision: null,
        error: null,
        preToolUse: null,
        postToolUse: null,
      }
    : null;
}

/**
 * The call an invoked actor works on. The chart only invokes those actors while a call is current;
 * if that were ever broken, the throw ends the task as an internal error instead of a wrong call.
 */
export function workingCall(context: EngineContext): CurrentCall {
  if (!context.current) throw new Error('no tool call is being worked on');
  return context.current;
}

/** The decision that blocked the prompt, when a UserPromptSubmit hook did. */
function blockedPrompt(context: EngineContext): PermissionDecision | null {
  const { hook } = context.prompt;
  return hook?.decision === 'block' ? promptBlockedDecision(hook) : null;
}

/** The error a stop reports: the current call's, the failed model request's, or the blocked prompt's. */
export function stopError(context: EngineContext): EngineError | null {
  const blocked = context.current ? null : blockedPrompt(context);
  return context.current?.error ?? context.modelError ?? (blocked ? { code: 'PERMISSION_DENIED', message: blocked.message ?? '' } : null);
}

/** The decision a stop reports: the current call's, or the blocked prompt's. */
export function stopDecision(context: EngineContext): PermissionDecision | null {
  return context.current?.decision ?? blockedPrompt(context);
}

/** The one sum of token counts (a task's rounds, a session's tasks, the UIs' totals), cache tokens included. */
export function addUsage(total: Usage | undefined, more: Usage): Usage {
  return {
    input_tokens: (total?.input_tokens ?? 0) + more.input_tokens,
    output_tokens: (total?.output_tokens ?? 0) + more.output_tokens,
    cache_read_input_tokens: (total?.cache_read_input_tokens ?? 0) + (more.cache_read_input_tokens ?? 0),
    cache_creation_input_tokens: (total?.cache_creation_input_tokens ?? 0) + (more.cache_creation_input_tokens ?? 0),
  };
}
