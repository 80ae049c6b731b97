import type { EngineContext } from '../../machines/engine-context.js';
import { currentCall } from '../../machines/engine-context.js';
import type { EngineState } from '../../machines/query-engine.js';
import type { TraceLine } from './events.js';

const STATES_AT_CALL = new Set<EngineState>(['validate_tool', 'ask_permission', 'execute_tool']);
/** Entered after the call's result was collected, so the call is the last one worked through. */
const STATES_AFTER_CALL = new Set<EngineState>(['recover', 'append_tool_result']);

/** The trace line for entering `state`, read from the context of the microstep that entered it. */
export function traceLine(options: { seq: number; ts: string; state: EngineState; context: EngineContext }): TraceLine {
  const { seq, ts, state, context } = options;
  const line: TraceLine = {
    seq,
    ts,
    session_id: context.sessionId,
    state,
    turn: context.turn,
    tool_call_count: context.toolCallCount,
    usage: context.usage,
  };
  const call = STATES_AT_CALL.has(state)
    ? currentCall(context)
    : STATES_AFTER_CALL.has(state)
      ? context.queue[context.results.length - 1]
      : undefined;
  if (call) line.call = call;
  if (state === 'done' && context.stoppedCall) line.call = context.stoppedCall;
  if (state === 'recover' || state === 'done') {
    if (context.lastError) line.error = context.lastError;
  }
  if ((state === 'ask_permission' || state === 'execute_tool' || state === 'recover' || state === 'done') && context.decision) {
    line.decision = context.decision;
  }
  if (state === 'done' && context.stopReason) line.reason = context.stopReason;
  return line;
}
