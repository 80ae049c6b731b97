import type { StopReason as AcpStopReason } from '@agentclientprotocol/sdk';
import type { QueryResult } from '../engine/events.js';

/**
 * The ACP stop reason of a finished task. The engine's reasons are finer; each maps to the ACP
 * reason a client acts on: a cut-off or refused answer, a budget used up (`max_turn_requests` for
 * both the round and the tool budget), a cancel. The rest (a refused tool, a timeout, a tool or
 * model failure) end the turn; the prompt tells the person why in the answer's last chunk.
 * @example acpStopReason({ reason: 'max_turns', ... }) // 'max_turn_requests'
 */
export function acpStopReason(result: Pick<QueryResult, 'reason' | 'model_stop_reason'>): AcpStopReason {
  switch (result.reason) {
    case 'final_answer':
      if (result.model_stop_reason === 'max_tokens') return 'max_tokens';
      if (result.model_stop_reason === 'refusal') return 'refusal';
      return 'end_turn';
    case 'max_turns':
    case 'max_tool_calls':
      return 'max_turn_requests';
    case 'user_abort':
      return 'cancelled';
    case 'timeout':
    case 'permission_denied':
    case 'tool_error':
    case 'model_error':
      return 'end_turn';
    default: {
      const unreachable: never = result.reason;
      return unreachable;
    }
  }
}
