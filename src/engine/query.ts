import { randomUUID } from 'node:crypto';
import { fairTurn } from '../system/fair-turns.js';
import { createActor } from 'xstate';
import type { EngineInput, SessionStartSource } from '../../machines/engine-context.js';
import { compactionRecord } from '../context/run-compaction.js';
import type { Message, TextBlock } from '../../machines/types.js';
import type { ModelClient } from '../model/types.js';
import type { PermissionPolicy } from '../permissions/types.js';
import { noSessionRecord, type EvidenceListener, type SessionSink } from '../sessions/session-writer.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { CommandSandbox } from '../tools/types.js';
import type { TaskContext } from '../context/task-context.js';
import type { PriceSettings } from '../model/cost.js';
import { estimateTokens } from '../../machines/context-budget.js';
import { AsyncQueue } from './async-queue.js';
import type { StepJournal } from './step-journal.js';
import { systemClock, type Clock } from './clock.js';
import { TaskClock } from './task-clock.js';
import { eventOf, type AgentEvent, type QueryResult } from './events.js';
import { engineImplementations, type Note } from './implementations.js';
import { chartFingerprint } from '../../machines/chart-fingerprint.js';
import { DEFAULT_LIMITS } from './limits.js';
import { stepOf } from '../sessions/step.js';
import type { Microstep } from './step-adapter.js';
import { hookEventsOf, type ResolvedHook } from '../hooks/index.js';
import type { AgentDefinition } from '../agents/definition.js';
import { agentTools, DialogTurns, MAIN_AGENT, taskToolFor } from './subagents.js';
import { AgentInspection } from './agent-inspection.js';
import { subagentStarter } from './subagent-logic.js';
import { agentChart, bindAgent } from './agent-chart.js';
import { outcomeOf, resultFields, type AgentOutcome } from './result-fields.js';
import { TaskLedger } from './task-ledger.js';
import { keepConversation } from './conversation.js';

export { DEFAULT_LIMITS } from './limits.js';

/** What the engine needs of a task's context: the system prompt, and the instruction files it came from (for the log). */
export type TaskInstructions = Pick<TaskContext, 'system' | 'instructions'>;

export interface QueryOptions {
  model: ModelClient;
  tools: ToolRegistry;
  permissions: PermissionPolicy;
  /** Absolute path of the workspace root. */
  workspace: string;
  maxTurns?: number;
  maxToolCalls?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  sessionId?: string;
  /** Where the trace, transcript and audit go (`openSessionWriter`); without one nothing is recorded. */
  session?: SessionSink;
  /** The conversation so far (resume); the new task is appended to it in place. */
  messages?: Message[];
  /**
   * The system prompt and the instruction files it was made from, as src/run prepares them
   * (`loadTaskContext`, or the `--system-prompt` text). May still be loading: prepareRun starts
   * reading it first, so git runs while the session's metadata is written.
   */
  context: TaskInstructions | Promise<TaskInstructions>;
  /** Prompt tokens the model takes; the engine compacts the conversation before passing 80 % of it. Default null: never compacts. */
  contextWindow?: number | null;
  clock?: Clock;
  /** Prices by model id (the settings' `modelPrices`), used before the built-in table for total_cost_usd. */
  prices?: PriceSettings;
  /** The hooks, resolved (src/run reads them from the settings files and the library's option). Without any, no hook guard holds and no hook actor starts. */
  hooks?: readonly ResolvedHook[];
  /**
   * Whether this task opens the session in this run, and how: SessionStart hooks run, told
   * `startup` (a new session) or `resume`. null: a later task of the same run. Default `startup`.
   */
  sessionStart?: SessionStartSource | null;
  /** Command hooks run inside this sandbox (the CLI's --sandbox, unless the settings say `"hooks": false`). */
  hookSandbox?: CommandSandbox;
  /** Variables set over the inherited environment for the commands the task starts: bash and command hooks (the settings' `env`). */
  commandEnv?: Readonly<Record<string, string>>;
  /** Sees every event as it happens, before it is yielded (the live inspector attaches here). */
  observe?: (event: AgentEvent) => void;
  /** Sees every line of the evidence log as it is written, as the stamped record (the live inspector's feed). */
  onEvidence?: EvidenceListener;
  /** Sees every microstep of every agent's chart (the main agent's, each subagent's, by agent path), targetless ones too (coverage, benchmarks). */
  onMicrostep?: (microstep: Microstep, agent: string) => void;
  /**
   * The agents the `task` tool may start (`loadAgents`, the built-in general-purpose one among
   * them). Absent or empty: the task has no task tool.
   */
  agents?: readonly AgentDefinition[];
  /** The model a subagent's file names (`sonnet`, a model id); absent: subagents use this task's model. */
  modelFor?: (model: string) => ModelClient;
  /** Where model rounds and tool calls run: at once by default; a durable runner (src/restate/) journals them. */
  journal?: StepJournal;
}

/**
 * Runs one task through the engine's statechart and yields what happens, ending with `result`.
 * @example for await (const event of query('summarise README.md', { model, tools, permissions, workspace })) {}
 */
export async function* query(userInput: string, options: QueryOptions): AsyncGenerator<AgentEvent, QueryResult> {
  const clock = options.clock ?? systemClock;
  const sessionId = options.sessionId ?? randomUUID();
  const sink: SessionSink = options.session ?? noSessionRecord(sessionId);
  const stopListening = options.onEvidence ? sink.listen(options.onEvidence) : undefined;
  const queue = new AsyncQueue<AgentEvent>();
  const agentPath = MAIN_AGENT;
  const emit = (event: AgentEvent) => {
    options.observe?.(event);
    queue.push(event);
  };
  // Several lines share a millisecond (a round is ~10 lines in well under 1 ms): format each millisecond once.
  let isoAt = Number.NaN;
  let isoText = '';
  const iso = () => {
    const now = Math.floor(clock.now());
    if (now !== isoAt) {
      isoAt = now;
      isoText = new Date(now).toISOString();
    }
    return isoText;
  };
  /** Writes one line of the evidence log and yields the event it is: the one way evidence leaves the engine. */
  const note: Note = (body) => {
    const record = sink.record(body, iso(), agentPath);
    const event = eventOf(record);
    if (event) emit(event);
    return record;
  };
  const messages = options.messages ?? [];
  const startedAt = clock.now();
  // The deadline counts the task's time, not the person's: the chart pauses it while the person is asked.
  const deadlineClock = new TaskClock(clock);
  // This task's last answer (never an earlier task's): the result's text.
  let answer = '';
  // Read once per task: the same system prompt every round is what lets the API cache it. While git
  // runs, the event loop is free for what the first request also waits for (the model client loading).
  const taskContext = await options.context;
  // Many tasks' contexts are read together: each builds its chart in a turn of its own (fair-turns.ts).
  const turn = fairTurn();
  if (turn) await turn;
  const system = taskContext.system;
  const contextWindow = options.contextWindow ?? null;
  const hooks = options.hooks ?? [];
  const budget = {
    maxTurns: options.maxTurns ?? DEFAULT_LIMITS.maxTurns,
    maxToolCalls: options.maxToolCalls ?? DEFAULT_LIMITS.maxToolCalls,
    timeoutMs: options.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
  };
  // The limits are the task's: every agent of it counts in one ledger, the main agent's.
  const ledger = new TaskLedger(budget, deadlineClock);
  // With agents, the task tool is one more tool; its calls run as children of this chart (subagent-logic.ts).
  const delegates = (options.agents ?? []).length > 0;
  const tools = delegates ? agentTools(options.tools, null, () => taskToolFor(options.agents ?? [])) : options.tools;
  const implementations = engineImplementations({
    hooks,
    ...(options.hookSandbox ? { hookSandbox: options.hookSandbox } : {}),
    ...(options.commandEnv ? { commandEnv: options.commandEnv } : {}),
    ...(options.journal ? { journal: options.journal } : {}),
    model: options.model,
    tools,
    permissions: options.permissions,
    workspace: options.workspace,
    system,
    clock,
    deadlineClock,
    agent: agentPath,
    ledger,
    conversation: messages,
    sink,
    sessionId,
    emit,
    note,
  });

  // Transient states (validate_tool, recover...) appear only in microsteps, never in snapshots.
  const onMicrostep = (microstep: Microstep) => {
    options.onMicrostep?.(microstep, agentPath);
    if (!microstep.entered) return;
    note(stepOf({ state: microstep.state, via: microstep.entered, context: microstep.context }));
  };

  // One inspection for the task's actor system: each agent's states go to its own lines.
  const inspection = new AgentInspection(onMicrostep);
  const startSubagent = delegates
    ? subagentStarter({
        options: { ...options, clock, sessionId },
        path: agentPath,
        depth: 0,
        sink,
        emit,
        note,
        ledger,
        dialog: new DialogTurns(),
        inspection,
      })
    : null;

  // The key the one provided chart finds this agent's rules by (agent-chart.ts).
  const handle = {};
  const input: EngineInput = {
    handle,
    sessionId,
    userInput,
    messages,
    ...budget,
    startedAt,
    contextWindow,
    baseTokens: estimateTokens(system) + estimateTokens(tools.specs()),
    hooks: hookEventsOf(hooks),
    sessionStart: options.sessionStart === undefined ? 'startup' : options.sessionStart,
  };
  // The log's first line: what a replay needs to know of the task, and which chart ran it.
  sink.record(
    {
      agent: agentPath,
      event: 'task_start',
      model: options.model.name,
      prompt: userInput,
      limits: { max_turns: input.maxTurns, max_tool_calls: input.maxToolCalls, timeout_ms: input.timeoutMs },
      instructions: taskContext.instructions.map((f) => f.path),
      ...(contextWindow ? { context_window: contextWindow } : {}),
      chart: chartFingerprint(),
    },
    new Date(startedAt).toISOString(),
  );
  const agent = { ...implementations, startSubagent };
  bindAgent([handle], agent);
  const actor = createActor(agentChart(), { input, inspect: inspection.inspect });
  bindAgent([actor], agent);
  // The conversation and the transcript follow what the chart says it changed, in the order it changed it.
  keepConversation(actor, messages, {
    message: (message) => {
      sink.message(message);
      if (message.role === 'assistant') answer = textOf(message);
    },
    compacted: ({ outcome }, messagesBefore) => sink.compaction(compactionRecord(outcome, messagesBefore, outcome.reason)),
  });

  // At least this agent's own (a round that failed counts in its trace), and every subagent's.
  const taskCounts = (turns: number, toolCalls: number) => ({
    turns: Math.max(turns, ledger.spent.turns),
    tool_calls: Math.max(toolCalls, ledger.spent.toolCalls),
  });
  let result: QueryResult | undefined;
  const finish = (outcome: AgentOutcome) => {
    const fields = resultFields(outcome, {
      text: answer,
      model: options.model,
      ...(options.prices ? { prices: options.prices } : {}),
      durationMs: clock.now() - startedAt,
      tracePath: sink.tracePath,
    });
    sink.record({ agent: agentPath, event: 'result', ...fields }, iso());
    const ended: QueryResult = { type: 'result', ...fields, session_id: sessionId, agent: agentPath };
    result = ended;
    sink.close();
    emit(ended);
    queue.close();
  };
  actor.subscribe({
    complete: () => {
      const output = actor.getSnapshot().output!;
      // The main agent reports the task's counts (its subagents' included), which its limits measured.
      finish(outcomeOf(output, taskCounts(output.turn, output.toolCallCount)));
    },
    // The chart routes every expected failure to `done`; this is a throw from an injected rule
    // (a tool schema that does not compile, a policy that crashes). It still ends with a reason.
    error: (error) => {
      const { context } = actor.getSnapshot();
      finish({
        reason: 'tool_error',
        ...taskCounts(context.turn, context.toolCallCount),
        usage: context.usage,
        error: { code: 'TOOL_FAILED', message: `internal error: ${error instanceof Error ? error.message : String(error)}` },
      });
    },
  });

  const abort = () => actor.send({ type: 'ABORT' });
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    actor.start();
    if (options.signal?.aborted) abort();
    for await (const event of queue) yield event;
  } finally {
    options.signal?.removeEventListener('abort', abort);
    stopListening?.();
    if (actor.getSnapshot().status === 'active') actor.send({ type: 'ABORT' });
    actor.stop();
  }
  if (!result) throw new Error('the engine stopped without a result');
  return result;
}

function textOf(message: Message): string {
  return message.content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
}
