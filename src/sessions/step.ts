import { stopDecision, stopError, type EngineContext } from '../../machines/engine-context.js';
import { hasTag, stateTags, TAG, type EngineStatePath, type StateTag } from '../../machines/query-engine.js';
import type { StateBody } from './records.js';
import type { EngineError, PermissionDecision, StopReason, ToolCall, Usage } from '../../machines/types.js';

/** The transition that entered a state. */
export interface Via {
  /** The event's type (`xstate.done.actor.callModel`, `ABORT`...), `always` when eventless, `xstate.init` for the first state. */
  event: string;
  /** The chart edge taken (`call_model.requesting:xstate.done.actor.callModel[responseHasToolCalls]>validate_tool`), as `chartTransitions` names it; absent for the first state. */
  transition?: string;
}

/**
 * One state entered: what caused it and what the state holds (its place in the log, `seq`, is the sink's to give). Built from the engine's context by
 * `stepOf`, so the call, decision and error are the current call's, never another one's.
 */
export interface Step {
  /** The full path of the state entered: `call_model.requesting`, `ask_permission.asking_user`, `done`. */
  state: EngineStatePath;
  /** What the state means (`model`, `tool`, `person`, `hooks`, `compaction`, ...): readers go by these, not by the name. Absent on lines written before tags. */
  tags?: readonly StateTag[];
  via: Via;
  turn: number;
  toolCallCount: number;
  usage: Usage;
  call?: ToolCall;
  decision?: PermissionDecision;
  error?: EngineError;
  reason?: StopReason;
  /** In the state that planned a batch and in `execute_tool.batch`: the calls running together, each with the rules' decision that let it in. */
  batch?: Array<{ call: ToolCall; decision: PermissionDecision }>;
}

/**
 * The state line a step writes (the trace's field names), built once per state entered: field by
 * field, since it runs for every state of every round.
 */
export function stepOf(options: { state: EngineStatePath; via: Via; context: EngineContext }): StateBody {
  const { state, via, context } = options;
  const { current } = context;
  const tags = stateTags(state);
  const body: StateBody = { state, tags, via, turn: context.turn, tool_call_count: context.toolCallCount, usage: context.usage };
  if (current) body.call = current.call;
  // Once stopped, a prompt that a UserPromptSubmit hook blocked has a decision too (and no call).
  const final = hasTag(body, TAG.final);
  const decision = final ? stopDecision(context) : current?.decision;
  if (decision) body.decision = decision;
  const error = final ? stopError(context) : current?.error;
  if (error) body.error = error;
  if (final && context.stopReason) body.reason = context.stopReason;
  // A batch is in the context from the state that planned it until its results are collected.
  if (context.batch.length > 0 && !final) body.batch = context.batch;
  return body;
}
