import type { CurrentCall, EngineContext } from './engine-context.js';
import { notExecutedText } from './recovery.js';
import type { StopReason, ToolResultBlock } from './types.js';

/**
 * The results that close a response's queue when the task stops part way: the results already
 * collected, then one synthetic is_error result per call left, so every tool_use keeps exactly one
 * tool_result and the conversation stays valid for the API.
 */
export function closingResults(context: EngineContext, reason: StopReason): ToolResultBlock[] {
  const { current } = context;
  // Every call of a running batch was under way, like `current`: each is told it was interrupted.
  const running = new Set([...(current ? [current.call.id] : []), ...context.batch.map((b) => b.call.id)]);
  const closing = context.queue.slice(context.results.length).map(
    (call): ToolResultBlock => ({
      type: 'tool_result',
      tool_use_id: call.id,
      content: current && running.has(call.id) ? currentCallText(current, reason) : notExecutedText(reason),
      is_error: true,
    }),
  );
  return [...context.results, ...closing];
}

function currentCallText(current: CurrentCall, reason: StopReason): string {
  switch (reason) {
    case 'permission_denied':
      return `Permission denied (${current.decision?.decidedBy ?? 'no decision'})${
        current.decision?.message ? `: ${current.decision.message}` : ''
      }`;
    case 'tool_error':
      return `The tool failed: ${current.error?.message ?? 'unknown error'}`;
    case 'user_abort':
      return 'interrupted: task aborted by the user';
    case 'timeout':
      return 'interrupted: task timed out';
    default:
      return notExecutedText(reason);
  }
}

/** The is_error result that tells the model what was wrong with its call, so it can retry. */
export function errorResult(current: CurrentCall): ToolResultBlock {
  return {
    type: 'tool_result',
    tool_use_id: current.call.id,
    content: current.error?.message ?? 'The tool call failed.',
    is_error: true,
  };
}
