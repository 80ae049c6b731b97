import { initialContext, stopDecision, stopError } from './engine-context.js';
import { setupEngine } from './engine-setup.js';
import { askPermission } from './states/ask-permission.js';
import { buildContext } from './states/build-context.js';
import { callModel } from './states/call-model.js';
import { MACHINE_ID } from './states/targets.js';
import { TAG, type StateTag } from './state-tags.js';

export { hasTag, TAG, type StateTag } from './state-tags.js';
import { appendToolResult, executeTool, recover, validateTool } from './states/tool-states.js';

export { decidePermissionAction, validateCallAction } from './call-steps.js';
export { toolHookDue } from './hook-steps.js';
export type { CallModelInput } from './engine-setup.js';

/**
 * The agent loop as one statechart. The seed's eight states are the top level; every wait (a hook
 * run, the model, the person, a summary, a tool) is a state of its own that invokes its actor on
 * entry, so the trace, the inspector and the diagram show what the task is waiting for.
 * Everything is named; src/engine provides the real actors and rules via `.provide()`.
 * @example createActor(queryEngine.provide({ actors: { callModel, executeTool } }), { input })
 */
export const queryEngine = setupEngine.createMachine({
  id: MACHINE_ID,
  context: ({ input }) => initialContext(input),
  initial: 'build_context',
  invoke: {
    id: 'deadline',
    src: 'deadline',
    input: ({ context }) => context.deadline,
  },
  on: {
    ABORT: [
      { guard: 'parentTimedOut', target: '.done', actions: { type: 'stop', params: { reason: 'timeout' } } },
      { target: '.done', actions: { type: 'stop', params: { reason: 'user_abort' } } },
    ],
    'CLOCK.TICK': { guard: 'timedOut', target: '.done', actions: { type: 'stop', params: { reason: 'timeout' } } },
  },
  states: {
    build_context: buildContext,
    call_model: callModel,
    validate_tool: validateTool,
    ask_permission: askPermission,
    execute_tool: executeTool,
    append_tool_result: appendToolResult,
    recover,
    done: {
      type: 'final',
      tags: [TAG.final],
      entry: 'closeOpenToolUses',
    },
  },
  output: ({ context }) => ({
    reason: context.stopReason ?? 'user_abort',
    turn: context.turn,
    toolCallCount: context.toolCallCount,
    usage: context.usage,
    error: stopError(context),
    decision: stopDecision(context),
    stoppedCall: context.current?.call ?? null,
    modelStopReason: context.lastResponse.stopReason,
    answer: context.lastResponse.text,
    agent: context.agent.path,
  }),
});

export type QueryEngine = typeof queryEngine;

/** The seed's eight states, the chart's top level, in the chart's order (read from the machine, not copied). */
export const ENGINE_STATES = Object.keys(queryEngine.root.states) as readonly EngineState[];
/** A top-level state. */
export type EngineState =
  | 'build_context'
  | 'call_model'
  | 'validate_tool'
  | 'ask_permission'
  | 'execute_tool'
  | 'append_tool_result'
  | 'recover'
  | 'done';
/** A state's full path, `ask_permission.asking_user`, as the trace names it. */
export type EngineStatePath = EngineState | `${EngineState}.${string}`;

/**
 * The tags of a state, by its full path (its own and its ancestors'), read from the machine: for
 * records written before state lines carried tags.
 * @example stateTags('ask_permission.asking_user') // ['person']
 */
export function stateTags(path: string): readonly StateTag[] {
  const known = tagsByPath.get(path);
  if (known) return known;
  const tags: StateTag[] = [];
  let node: { tags: readonly string[]; states: Record<string, unknown> } = queryEngine.root;
  for (const key of path.split('.')) {
    const next = node.states[key] as typeof node | undefined;
    if (!next) break;
    tags.push(...(next.tags as StateTag[]));
    node = next;
  }
  tagsByPath.set(path, tags);
  return tags;
}
const tagsByPath = new Map<string, readonly StateTag[]>();
