import type { ToolCall } from '../../machines/types.js';
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
      return refusalMessage(result);
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

/**
 * One line: `✗ bash(rm -rf build) — declined by you` when the person said no (they know how to
 * allow it; they were in the prompt), else which rule or mode refused it and how to change that.
 */
function refusalMessage(result: QueryResult): string {
  const decidedBy = result.decision?.decidedBy ?? 'no decision recorded';
  // A UserPromptSubmit hook blocked the prompt: the person reads the hook's own words.
  if (!result.call && decidedBy.startsWith('hook ')) return `✗ ${result.decision?.message ?? 'blocked'} (${decidedBy})`;
  const call = result.call ? describeCall(result.call) : 'a tool call';
  if (decidedBy.startsWith('user: no')) return `✗ ${call} — declined by you`;
  if (decidedBy.startsWith('user:')) return `✗ ${call} — not allowed: ${decidedBy.replace(/^user: /, '')}`;
  return `✗ ${call} — refused by ${decidedBy}. Allow it with --allow, a settings rule, or --permission-mode.`;
}

/** A short, one-line view of a call for stop messages: `bash(npm test)`, `read_file(src/a.ts)`. */
export function describeCall(call: ToolCall): string {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const main = input.command ?? input.path ?? input.pattern ?? '';
  const text = typeof main === 'string' ? main : JSON.stringify(main);
  return `${call.name}(${text.length > 80 ? `${text.slice(0, 77)}...` : text})`;
}
