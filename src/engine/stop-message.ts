import type { QueryResult } from './events.js';
import type { TaskLimits } from './limits.js';

/** Describing a stop needs the task's limits (the CLI's text output and the inspector both ask here). */
export type StopMessageLimits = TaskLimits;

/** What the user is told when a task stops, one sentence per stop reason. */
export function stopMessage(result: QueryResult, limits: StopMessageLimits): string {
  switch (result.reason) {
    case 'final_answer':
      if (result.model_stop_reason === 'max_tokens') return 'Note: the answer was cut off at the output token limit.';
      if (result.model_stop_reason === 'refusal') return 'Note: the model declined this request.';
      return '';
    case 'max_turns':
      return `Stopped: the task needed more than ${limits.maxTurns} model rounds. Split it into smaller tasks or raise --max-turns.`;
    case 'max_tool_calls':
      return `Stopped: the tool budget of ${limits.maxToolCalls} calls is used up. Narrow the task or raise --max-tool-calls.`;
    case 'timeout':
      return `Stopped: ran out of time after ${formatMs(limits.timeoutMs)}. The task can be retried, or raise --timeout.`;
    case 'permission_denied':
      return `Stopped: ${result.call?.name ?? 'a tool call'} was refused (${result.decision?.decidedBy ?? 'no decision recorded'})${
        result.decision?.message ? `: ${result.decision.message}` : ''
      }. Allow it with --allow, a settings rule, or --permission-mode.`;
    case 'tool_error':
      return `Stopped: ${result.call?.name ?? 'a tool'} failed in a way the model cannot fix: ${result.error?.message ?? 'unknown error'}`;
    case 'model_error':
      return `Stopped: the model request failed: ${result.error?.message ?? 'unknown error'}`;
    case 'user_abort':
      return 'Interrupted: the task was stopped; the session is saved and can be continued with --continue.';
    default: {
      const unreachable: never = result.reason;
      return unreachable;
    }
  }
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)}s`;
  return `${+(ms / 60_000).toFixed(1)}m`;
}
