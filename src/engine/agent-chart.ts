import { fromCallback, fromPromise, type ActorLogic, type ActorScope, type AnyActorRef, type EventObject, type SnapshotFrom } from 'xstate';
import type { EngineContext, EngineOutput } from '../../machines/engine-context.js';
import type { DeadlineEvent } from '../../machines/engine-setup.js';
import type { BatchRules } from '../../machines/batch-steps.js';
import type { CompactContextInput, CompactionOutcome } from '../../machines/context-budget.js';
import type { HookOutcome, HookRunInput } from '../../machines/hooks.js';
import {
  decidePermissionAction,
  queryEngine,
  toolHookDue,
  validateCallAction,
  type CallModelInput,
  type QueryEngine,
} from '../../machines/query-engine.js';
import { planBatchAction } from '../../machines/batch-steps.js';
import type { SubagentInput } from '../../machines/subagent-steps.js';
import { limitGuards, type TaskLimits } from '../../machines/task-limits.js';
import type { ModelResponse, PermissionDecision, ToolCall, ToolResult, Validation } from '../../machines/types.js';

/**
 * One provided chart for every agent of every task in the process. `queryEngine.provide(...)` per
 * task built a whole new machine (every state node and transition again): ~61 KB kept per task
 * in flight, 600 MB at 10,000 tasks. Here the chart is provided once, and each name finds the
 * implementation of the agent it runs for: guards and actions by the context's `agent.handle`
 * (guards get nothing else), invoked and spawned actors by their parent, the agent's actor.
 * The chart's names stay what they are, so the trace, the inspector, the diagram and the path
 * tests see the same chart.
 * @example const handle = {}; bindAgent([handle], agent); const actor = createActor(agentChart(), { input: { ...input, handle } }); bindAgent([actor], agent);
 */

type PromiseCreator<Output, Input> = Parameters<typeof fromPromise<Output, Input>>[0];
type CallbackCreator<Event extends EventObject, Input> = Parameters<typeof fromCallback<Event, Input>>[0];
type EngineSnapshot = SnapshotFrom<QueryEngine>;

/** What one agent runs the chart with: its actors (the bodies of XState's promise and callback actors) and its rules. */
export interface AgentImplementations {
  actors: {
    callModel: PromiseCreator<ModelResponse, CallModelInput>;
    askPermission: PromiseCreator<PermissionDecision, { call: ToolCall; decision: PermissionDecision }>;
    executeTool: PromiseCreator<ToolResult, { call: ToolCall }>;
    compactContext: PromiseCreator<CompactionOutcome, CompactContextInput>;
    runHooks: PromiseCreator<HookOutcome, HookRunInput>;
    deadline: CallbackCreator<DeadlineEvent, { startedAt: number; timeoutMs: number }>;
  };
  rules: {
    validate: (call: ToolCall) => Validation;
    decide: (call: ToolCall) => PermissionDecision;
    limits: TaskLimits;
    batch: BatchRules;
    /** Whether a PreToolUse / PostToolUse hook's matcher takes the call's tool. */
    hookMatches: (event: 'PreToolUse' | 'PostToolUse', call: ToolCall) => boolean;
  };
  /** Starts a task call's subagent as this agent's child (subagent-logic.ts); null: this agent has no task tool. */
  startSubagent: ((scope: ActorScope<EngineSnapshot, EventObject>, input: SubagentInput) => EngineSnapshot) | null;
}

// Weak: an agent's implementations go when its handle and its actor do.
const agents = new WeakMap<object, AgentImplementations>();

/** Makes `implementations` the agent's behind each key: its handle (before its actor is created) and its actor. */
export function bindAgent(keys: readonly object[], implementations: AgentImplementations): void {
  for (const key of keys) agents.set(key, implementations);
}

function byHandle(context: EngineContext): AgentImplementations {
  const found = context.agent.handle ? agents.get(context.agent.handle) : undefined;
  if (!found) throw new Error(`no implementations bound to agent ${context.agent.path}'s handle`);
  return found;
}

/** The agent an invoked or spawned actor works for: its parent (XState's `_parent`, part of its ActorRef type). */
function byParent(self: AnyActorRef): AgentImplementations {
  const found = self._parent ? agents.get(self._parent) : undefined;
  if (!found) throw new Error(`no implementations bound to the agent that started ${self.id}`);
  return found;
}

const rulesOf = (context: EngineContext) => byHandle(context).rules;

const limits: TaskLimits = {
  toolCallsLeft: (context) => rulesOf(context).limits.toolCallsLeft(context),
  turnsLeft: (context) => rulesOf(context).limits.turnsLeft(context),
};

/** A task call's child: the same chart, started by its parent's `startSubagent`, every later step the chart's own. */
const subagent: ActorLogic<EngineSnapshot, EventObject, SubagentInput> = {
  transition: (snapshot, event, scope) => snapshot.machine.transition(snapshot, event as never, scope as never),
  getInitialSnapshot: (scope, input) => {
    const start = byParent(scope.self as AnyActorRef).startSubagent;
    if (!start) throw new Error('subagent is not provided');
    return start(scope, input);
  },
  start: (snapshot) => snapshot.machine.start(snapshot),
  getPersistedSnapshot: (snapshot) => snapshot.machine.getPersistedSnapshot(snapshot),
};

function provideOnce() {
  return queryEngine.provide({
    actors: {
      callModel: fromPromise<ModelResponse, CallModelInput>((args) => byParent(args.self).actors.callModel(args)),
      askPermission: fromPromise<PermissionDecision, { call: ToolCall; decision: PermissionDecision }>((args) =>
        byParent(args.self).actors.askPermission(args),
      ),
      executeTool: fromPromise<ToolResult, { call: ToolCall }>((args) => byParent(args.self).actors.executeTool(args)),
      compactContext: fromPromise<CompactionOutcome, CompactContextInput>((args) => byParent(args.self).actors.compactContext(args)),
      runHooks: fromPromise<HookOutcome, HookRunInput>((args) => byParent(args.self).actors.runHooks(args)),
      deadline: fromCallback<DeadlineEvent, { startedAt: number; timeoutMs: number }>((args) => byParent(args.self).actors.deadline(args)),
      // The chart names the actor with a promise's types (its output and input are what it reads); the logic is a chart's.
      subagent: subagent as unknown as ReturnType<typeof fromPromise<EngineOutput, SubagentInput>>,
    },
    guards: {
      ...limitGuards(limits),
      preToolUseDue: toolHookDue('PreToolUse', (call, context) => rulesOf(context).hookMatches('PreToolUse', call)),
      postToolUseDue: toolHookDue('PostToolUse', (call, context) => rulesOf(context).hookMatches('PostToolUse', call)),
    },
    actions: {
      validateCall: validateCallAction((call, context) => rulesOf(context).validate(call), limits),
      decidePermission: decidePermissionAction((call, context) => rulesOf(context).decide(call)),
      planBatch: planBatchAction((context) => rulesOf(context).batch),
    },
  });
}

let chart: QueryEngine | undefined;

/** The chart every agent runs, provided once per process. */
export function agentChart(): QueryEngine {
  return (chart ??= provideOnce());
}
