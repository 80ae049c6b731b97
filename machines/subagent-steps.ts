import type { EngineContext, EngineOutput } from './engine-context.js';
import type { ToolCall, ToolResult } from './types.js';

/**
 * Subagents as the chart sees them: a `task` call runs as a child of this chart's actor system,
 * the same chart, spawned by the state that runs it (`execute_tool.subagent`, or a batch's call)
 * with its agent path as `systemId`, stopped when that state is left, its answer coming back as its
 * done event's output. src provides the child's logic (the chart with the agent's tools, rules and
 * hooks) as the `subagent` actor; the chart only names the child and reads its output.
 */

/** The tool whose calls run as child charts (the contract's `task`). */
export const SUBAGENT_TOOL = 'task';

/** What a child chart is started with: the task call, and the agent path it runs under (its `systemId`). */
export interface SubagentInput {
  call: ToolCall;
  path: string;
}

/** Whether a call runs as a child chart rather than a tool. */
export function isSubagentCall(call: ToolCall): boolean {
  return call.name === SUBAGENT_TOOL;
}

/** The path of the next child this agent starts: `main/task-1`, then `main/task-2`; numbered in the order they start. */
export function nextChildPath(context: EngineContext): string {
  return `${context.agent.path}/task-${context.agent.children + 1}`;
}

/** The path of the child this agent started last (the one `execute_tool.subagent` runs). */
export function lastChildPath(context: EngineContext): string {
  return `${context.agent.path}/task-${context.agent.children}`;
}

/** The agent's own record once it started a child (so the next one gets the next number). */
export function withChildStarted(context: EngineContext): Pick<EngineContext, 'agent'> {
  return { agent: { ...context.agent, children: context.agent.children + 1 } };
}

/**
 * The tool result a finished child gives its parent: its answer, or an is_error result that names
 * why it stopped (and its last words). Its usage rolls up into the parent's.
 * @example subagentResult(call, { reason: 'final_answer', answer: 'found it', ... }).content // 'found it'
 */
export function subagentResult(call: ToolCall, output: EngineOutput): ToolResult {
  if (output.reason === 'final_answer')
    return { content: output.answer || '(the agent gave no answer)', isError: false, usage: output.usage };
  const name = (call.input as { subagent_type?: unknown } | null)?.subagent_type;
  const why = output.error ? `: ${output.error.message}` : '';
  const partial = output.answer ? `\nIts last words: ${output.answer}` : '';
  return {
    content: `The agent ${typeof name === 'string' ? name : 'subagent'} (${output.agent}) stopped with ${output.reason}${why}.${partial}`,
    isError: true,
    usage: output.usage,
  };
}
