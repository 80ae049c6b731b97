import type {
  EngineError,
  Message,
  PermissionDecision,
  StopReason,
  ToolCall,
  ToolResultBlock,
  Usage,
  Validation,
} from './types.js';

/** Everything one task knows. Counters are per snapshot; `messages` is one append-only array. */
export interface EngineContext {
  sessionId: string;
  userInput: string;
  /** Appended in place, never copied: copying per transition makes each round cost O(history). */
  messages: Message[];
  /** Model rounds completed. */
  turn: number;
  maxTurns: number;
  /** Tool executions, successful or not. */
  toolCallCount: number;
  maxToolCalls: number;
  /** From the injected clock. */
  startedAt: number;
  timeoutMs: number;
  /** The tool calls of the last response, worked through in order. */
  queue: ToolCall[];
  /** Ids of queued calls whose input the model was cut off writing. */
  truncatedIds: string[];
  /** One result per call already worked through; `results.length` is the current call's index. */
  results: ToolResultBlock[];
  validation: Validation | null;
  decision: PermissionDecision | null;
  lastError: EngineError | null;
  lastStopReason: string | null;
  usage: Usage;
  stopReason: StopReason | null;
  /** The call being worked on when the task stopped, if any. */
  stoppedCall: ToolCall | null;
}

export interface EngineInput {
  sessionId: string;
  userInput: string;
  /** An earlier conversation to continue; appended to in place. */
  messages?: Message[];
  maxTurns: number;
  maxToolCalls: number;
  timeoutMs: number;
  startedAt: number;
}

export interface EngineOutput {
  reason: StopReason;
  turn: number;
  toolCallCount: number;
  usage: Usage;
  error: EngineError | null;
  decision: PermissionDecision | null;
  stoppedCall: ToolCall | null;
  /** The API's stop_reason of the last response (end_turn, max_tokens, refusal...). */
  modelStopReason: string | null;
}

export type EngineEvent = { type: 'ABORT' } | { type: 'CLOCK.TICK'; now: number };

export function initialContext(input: EngineInput): EngineContext {
  return {
    sessionId: input.sessionId,
    userInput: input.userInput,
    messages: input.messages ?? [],
    turn: 0,
    maxTurns: input.maxTurns,
    toolCallCount: 0,
    maxToolCalls: input.maxToolCalls,
    startedAt: input.startedAt,
    timeoutMs: input.timeoutMs,
    queue: [],
    truncatedIds: [],
    results: [],
    validation: null,
    decision: null,
    lastError: null,
    lastStopReason: null,
    usage: { input_tokens: 0, output_tokens: 0 },
    stopReason: null,
    stoppedCall: null,
  };
}

/** The call being worked on, if any. */
export function currentCall(context: EngineContext): ToolCall | undefined {
  return context.queue[context.results.length];
}

export function addUsage(total: Usage, more: Usage): Usage {
  return {
    input_tokens: total.input_tokens + more.input_tokens,
    output_tokens: total.output_tokens + more.output_tokens,
    cache_read_input_tokens: (total.cache_read_input_tokens ?? 0) + (more.cache_read_input_tokens ?? 0),
    cache_creation_input_tokens: (total.cache_creation_input_tokens ?? 0) + (more.cache_creation_input_tokens ?? 0),
  };
}
