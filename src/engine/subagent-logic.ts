import type { ActorScope, AnyActorRef, EventObject, SnapshotFrom } from 'xstate';
import type { EngineInput, EngineOutput } from '../../machines/engine-context.js';
import type { QueryEngine } from '../../machines/query-engine.js';
import { subagentResult, type SubagentInput } from '../../machines/subagent-steps.js';
import { estimateTokens } from '../../machines/context-budget.js';
import { chartFingerprint } from '../../machines/chart-fingerprint.js';
import type { Message } from '../../machines/types.js';
import type { AgentDefinition } from '../agents/definition.js';
import { TASK_TOOL, type TaskInput } from '../agents/task-input.js';
import { subagentHooks } from '../hooks/subagent-hooks.js';
import type { PermissionPolicy } from '../permissions/types.js';
import type { SessionSink } from '../sessions/session-writer.js';
import { stepOf } from '../sessions/step.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { AgentInspection } from './agent-inspection.js';
import type { Clock } from './clock.js';
import { keepConversation } from './conversation.js';
import { eventOf, type AgentEvent } from './events.js';
import { engineImplementations, type Note } from './implementations.js';
import type { QueryOptions } from './query.js';
import { outcomeOf, resultFields } from './result-fields.js';
import { agentTools, childPolicy, childSink, MAX_AGENT_DEPTH, passesOn, taskToolFor, type DialogTurns } from './subagents.js';
import { TaskClock } from './task-clock.js';
import { agentChart, bindAgent, type AgentImplementations } from './agent-chart.js';
import type { TaskLedger } from './task-ledger.js';

/**
 * A subagent as a child of its parent's actor system: the chart spawns the `subagent` actor for a
 * task call (with the agent path as `systemId`), and this logic makes it the same chart, provided
 * for the agent the call names: its prompt, its tools, its permissions (one dialog at a time), the
 * same hooks (SubagentStop for Stop), the task's ledger, the session log under its path. Its budget
 * (what is left of the task's limits) is its input; its answer comes back as its done event's output.
 * Its states reach the trace through the system's one inspection (AgentInspection).
 */

/** What a child needs of the agent that starts it: the run's options as that agent has them, and the task's shared parts. */
export interface SubagentParent {
  options: QueryOptions & { clock: Clock; sessionId: string };
  /** The parent's agent path and depth (`main`, 0). */
  path: string;
  depth: number;
  /** The session's sink, the parent's event stream and its evidence writer (the task call's own lines are the parent's). */
  sink: SessionSink;
  emit: (event: AgentEvent) => void;
  note: Note;
  ledger: TaskLedger;
  dialog: DialogTurns;
  inspection: AgentInspection;
}

type EngineSnapshot = SnapshotFrom<QueryEngine>;
type Scope = ActorScope<EngineSnapshot, EventObject>;

/** The tools an agent at `depth` gets: its file's subset of the run's, and a task tool of its own above the depth limit. */
function toolsAt(run: ToolRegistry, agent: AgentDefinition, agents: readonly AgentDefinition[], depth: number) {
  const own = agentTools(run, agent, null);
  const delegates = agents.length > 0 && depth < MAX_AGENT_DEPTH;
  return { run: own, tools: delegates ? agentTools(own, null, () => taskToolFor(agents)) : own, delegates };
}

/**
 * How an agent with a task tool starts the `subagent` actor the chart spawns (agent-chart.ts calls
 * it as the actor's first snapshot): the agent's chart for the agent the call names, a child of `parent`.
 */
export function subagentStarter(parent: SubagentParent): NonNullable<AgentImplementations['startSubagent']> {
  return (scope, input) => startChild(parent, scope, input);
}

function startChild(parent: SubagentParent, scope: Scope, input: SubagentInput): EngineSnapshot {
  const { options, sink, ledger } = parent;
  const { clock, sessionId } = options;
  const { call, path } = input;
  const agents = options.agents ?? [];
  const task = call.input as TaskInput;
  const iso = () => new Date(clock.now()).toISOString();
  const startedAt = clock.now();
  // The task call is a tool call of the parent's: it counts, and its start and result are the parent's lines.
  ledger.toolStarted();
  parent.note({ event: 'tool_start', call });
  const agent = agents.find((a) => a.name === task.subagent_type);
  const ended = (content: string, isError: boolean) => {
    parent.note({ event: 'tool_result', call, result: { content, is_error: isError }, duration_ms: clock.now() - startedAt });
    sink.audit({
      ts: iso(),
      session_id: sessionId,
      call,
      duration_ms: clock.now() - startedAt,
      is_error: isError,
      aborted: false,
      content: content.slice(0, 2000),
    });
  };
  if (!agent) {
    const message = `No agent named "${task.subagent_type}". Available: ${agents.map((a) => a.name).join(', ')}.`;
    ended(message, true);
    // The model can fix it: the chart sends it back as the call's is_error result.
    throw Object.assign(new Error(message), { code: 'TOOL_INPUT_INVALID' });
  }

  const depth = parent.depth + 1;
  const childAgents = agent.tools && !agent.tools.includes(TASK_TOOL) ? [] : agents;
  const { run, tools, delegates } = toolsAt(options.tools, agent, childAgents, depth);
  const model = agent.model && options.modelFor ? options.modelFor(agent.model) : options.model;
  const permissions: PermissionPolicy = childPolicy(options.permissions, agent, path, parent.dialog);
  const emit = (event: AgentEvent) => {
    if (passesOn(event)) parent.emit(event);
  };
  const note: Note = (body) => {
    const record = sink.record(body, iso(), path);
    const event = eventOf(record);
    if (event) emit(event);
    return record;
  };
  const messages: Message[] = [];
  const { hooks, events: hookEvents } = subagentHooks(options.hooks ?? []);
  const implementations = engineImplementations({
    hooks,
    ...(options.hookSandbox ? { hookSandbox: options.hookSandbox } : {}),
    ...(options.commandEnv ? { commandEnv: options.commandEnv } : {}),
    model,
    tools,
    permissions,
    workspace: options.workspace,
    system: agent.prompt,
    clock,
    deadlineClock: new TaskClock(clock),
    agent: path,
    agentType: agent.name,
    ledger,
    conversation: messages,
    sink: childSink(sink),
    sessionId,
    emit,
    note,
  });
  const own: SubagentParent = {
    ...parent,
    options: { ...options, model, tools: run, permissions, agents: childAgents },
    path,
    depth,
    emit,
    note,
  };
  // Its rules are found by its handle (the chart's guards and actions) and by its actor (the actors it starts).
  const handle = {};
  bindAgent([handle, scope.self], { ...implementations, startSubagent: delegates ? subagentStarter(own) : null });

  // Its budget is what is left of the task's: every agent's rounds and calls count in the one ledger.
  const left = ledger.left();
  const engineInput: EngineInput = {
    handle,
    sessionId,
    userInput: task.prompt,
    messages: [],
    ...left,
    startedAt,
    contextWindow: options.contextWindow ?? null,
    baseTokens: estimateTokens(agent.prompt) + estimateTokens(tools.specs()),
    hooks: hookEvents,
    sessionStart: null,
    agent: path,
  };
  sink.record(
    {
      agent: path,
      event: 'task_start',
      model: model.name,
      prompt: task.prompt,
      limits: { max_turns: left.maxTurns, max_tool_calls: left.maxToolCalls, timeout_ms: left.timeoutMs },
      instructions: [],
      ...(options.contextWindow ? { context_window: options.contextWindow } : {}),
      chart: chartFingerprint(),
    },
    iso(),
  );
  const self = scope.self as AnyActorRef;
  parent.inspection.watch(self, (microstep) => {
    options.onMicrostep?.(microstep, path);
    if (microstep.entered) note(stepOf({ state: microstep.state, via: microstep.entered, context: microstep.context }));
  });
  keepConversation(self as Parameters<typeof keepConversation>[0], messages);
  const subscription = self.subscribe({
    complete: () => {
      subscription.unsubscribe();
      parent.inspection.forget(self);
      const output = self.getSnapshot().output as EngineOutput;
      const outcome = outcomeOf(output, { turns: output.turn, tool_calls: output.toolCallCount });
      const fields = resultFields(outcome, {
        text: output.answer,
        model,
        ...(options.prices ? { prices: options.prices } : {}),
        durationMs: clock.now() - startedAt,
        tracePath: sink.tracePath,
      });
      sink.record({ agent: path, event: 'result', ...fields }, iso());
      const result = subagentResult(call, output);
      ended(result.content, result.isError);
    },
    error: (error) => {
      subscription.unsubscribe();
      parent.inspection.forget(self);
      ended(`The agent ${agent.name} (${path}) failed: ${error instanceof Error ? error.message : String(error)}`, true);
    },
  });
  return agentChart().getInitialSnapshot(scope as never, engineInput);
}
