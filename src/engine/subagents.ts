import type { ToolResult } from '../../machines/types.js';
import type { AgentDefinition } from '../agents/definition.js';
import { TASK_TOOL, type TaskInput } from '../agents/task-input.js';
import { createTaskTool } from '../agents/task-tool.js';
import type { PermissionPolicy } from '../permissions/types.js';
import type { SessionSink } from '../sessions/session-writer.js';
import { ToolRegistry } from '../tools/registry.js';
import type { AgentEvent, QueryResult } from './events.js';
import type { QueryOptions } from './query.js';
import type { Clock } from './clock.js';
import type { TaskLedger } from './task-ledger.js';

/** The top level's agent path; a child of it is `main/task-1`, a grandchild `main/task-1/task-2`. */
export const MAIN_AGENT = 'main';
/** How deep delegation goes: `main` is 0; an agent at this depth has no task tool, so a loop of delegation ends. */
export const MAX_AGENT_DEPTH = 2;

/**
 * Where a subagent stands in the tree: its path, its depth, its agent's name (`type`, as hooks are
 * told), the one permission dialog every agent of the run shares, and the task's ledger, which
 * every agent's rounds and tool calls count toward.
 */
export interface AgentScope {
  path: string;
  depth: number;
  type: string;
  dialog: DialogTurns;
  ledger: TaskLedger;
}

/** Permission asks from agents running at once, put to the person one at a time, in order. */
export class DialogTurns {
  private last: Promise<unknown> = Promise.resolve();
  run<T>(ask: () => Promise<T>): Promise<T> {
    const turn = this.last.then(ask, ask);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}

/**
 * A child's permissions: the parent's rules and mode (never looser), `plan` if its file says so,
 * and its asks put to the same person one dialog at a time, labelled with the agent's path and name.
 */
export function childPolicy(parent: PermissionPolicy, agent: AgentDefinition, path: string, dialog: DialogTurns): PermissionPolicy {
  const label = `agent ${path} (${agent.name})`;
  return {
    ...(parent.mode ? { mode: agent.permissionMode === 'plan' ? 'plan' : parent.mode } : {}),
    decide(call, tool) {
      if (agent.permissionMode === 'plan' && !tool.readOnly) {
        return {
          behavior: 'deny',
          decidedBy: `${label}: permissionMode plan`,
          continueWithFeedback: true,
          message: `${agent.name} runs in plan mode: it may read and search, not change anything or run commands.`,
        };
      }
      return parent.decide(call, tool);
    },
    ask: (call, pending, signal) =>
      dialog.run(() =>
        signal.aborted
          ? Promise.resolve({ behavior: 'deny' as const, decidedBy: `${label}: aborted before asking` })
          : parent.ask(call, { ...pending, decidedBy: `${label} asks: ${pending.decidedBy}` }, signal),
      ),
  };
}

/** The tools of an agent at `depth`: its file's subset of the run's tools, and a task tool of its own below the depth limit. */
export function agentTools(
  run: ToolRegistry,
  agent: AgentDefinition | null,
  taskTool: (() => ReturnType<typeof createTaskTool>) | null,
): ToolRegistry {
  const wanted = agent?.tools ? new Set(agent.tools) : null;
  const tools = run
    .names()
    .filter((name) => name !== TASK_TOOL && (!wanted || wanted.has(name)))
    .map((name) => run.get(name)!);
  const withTask = taskTool && (!wanted || wanted.has(TASK_TOOL)) ? [...tools, taskTool()] : tools;
  return new ToolRegistry(withTask);
}

/**
 * A child's sink: its lines go into the same evidence log (one `seq` for the whole session, its
 * own `agent`), its audit lines into the same audit; its conversation is its own and stays out of
 * the session's transcript, which must remain the main conversation. Closing it closes nothing.
 */
export function childSink(parent: SessionSink): SessionSink {
  return {
    dir: parent.dir,
    tracePath: parent.tracePath,
    record: (body, ts) => parent.record(body, ts),
    listen: () => () => undefined,
    message: () => undefined,
    compaction: () => undefined,
    audit: (record) => parent.audit(record),
    close: () => undefined,
  };
}

/** The tool result a finished subagent gives its parent: its answer, or an is_error result that names why it stopped. */
export function subagentResult(agent: AgentDefinition, path: string, result: QueryResult): ToolResult {
  if (result.reason === 'final_answer')
    return { content: result.text || '(the agent gave no answer)', isError: false, usage: result.usage };
  const why = result.error ? `: ${result.error.message}` : '';
  const partial = result.text ? `\nIts last words: ${result.text}` : '';
  return {
    content: `The agent ${agent.name} (${path}) stopped with ${result.reason}${why}.${partial}`,
    isError: true,
    usage: result.usage,
  };
}

/** The events of a child that its parent passes on: not the streamed deltas (they would mix into the parent's text), not its result (the parent's consumers end on a result). */
export function passesOn(event: AgentEvent): boolean {
  return event.type !== 'text_delta' && event.type !== 'thinking_delta' && event.type !== 'result';
}

export type { TaskInput };

/**
 * The tools of a task: the run's, plus a task tool when it has agents and stands above the depth
 * limit. Each task call starts a child: `run` (query() itself) with the prompt alone, the agent's
 * instructions, tools and permissions, the same hooks (its own SubagentStop in the place of Stop),
 * the task's ledger (its rounds and calls count toward the task's limits; its deadline is the
 * task's), the parent's signal (an abort reaches it), the same session log under the child's path.
 * Its events go on to the parent's stream (`passesOn`); its usage comes back with its result.
 */
export function startsSubagents({
  options,
  scope,
  sink,
  emit,
  ledger,
  run,
}: {
  options: QueryOptions & { clock: Clock; sessionId: string };
  scope: AgentScope | null;
  sink: SessionSink;
  emit: (event: AgentEvent) => void;
  ledger: TaskLedger;
  run: (prompt: string, options: QueryOptions) => AsyncGenerator<AgentEvent, QueryResult>;
}): ToolRegistry {
  const agents = options.agents ?? [];
  const depth = scope?.depth ?? 0;
  if (agents.length === 0 || depth >= MAX_AGENT_DEPTH) return options.tools;
  const path = scope?.path ?? MAIN_AGENT;
  const dialog = scope?.dialog ?? new DialogTurns();
  let started = 0;
  // Numbered in the order the calls start (every call, an unknown agent too): the inspector finds a task card's child by it.
  const start = async (agent: AgentDefinition | null, input: TaskInput, signal: AbortSignal): Promise<ToolResult> => {
    const childPath = `${path}/task-${++started}`;
    if (!agent) {
      return { content: `No agent named "${input.subagent_type}". Available: ${agents.map((a) => a.name).join(', ')}.`, isError: true };
    }
    const child = run(input.prompt, {
      model: agent.model && options.modelFor ? options.modelFor(agent.model) : options.model,
      tools: agentTools(options.tools, agent, null),
      permissions: childPolicy(options.permissions, agent, childPath, dialog),
      workspace: options.workspace,
      maxTurns: ledger.budget.maxTurns,
      maxToolCalls: ledger.budget.maxToolCalls,
      timeoutMs: ledger.timeLeft(),
      signal,
      sessionId: options.sessionId,
      session: childSink(sink),
      messages: [],
      context: { system: agent.prompt, instructions: [] },
      clock: options.clock,
      ...(options.prices ? { prices: options.prices } : {}),
      ...(options.contextWindow ? { contextWindow: options.contextWindow } : {}),
      sessionStart: null,
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.hookSandbox ? { hookSandbox: options.hookSandbox } : {}),
      ...(options.commandEnv ? { commandEnv: options.commandEnv } : {}),
      agents: agent.tools && !agent.tools.includes(TASK_TOOL) ? [] : agents,
      ...(options.modelFor ? { modelFor: options.modelFor } : {}),
      agent: { path: childPath, depth: depth + 1, type: agent.name, dialog, ledger },
    });
    let result: QueryResult | undefined;
    for await (const event of child) {
      if (event.type === 'result') result = event;
      else if (passesOn(event)) emit(event);
    }
    if (!result) return { content: `The agent ${agent.name} (${childPath}) ended without a result.`, isError: true };
    return subagentResult(agent, childPath, result);
  };
  return agentTools(options.tools, null, () => createTaskTool({ agents, start }));
}
