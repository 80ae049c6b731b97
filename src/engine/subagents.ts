import type { AgentDefinition } from '../agents/definition.js';
import { TASK_TOOL } from '../agents/task-input.js';
import { createTaskTool } from '../agents/task-tool.js';
import type { PermissionPolicy } from '../permissions/types.js';
import type { SessionSink } from '../sessions/session-writer.js';
import { ToolRegistry } from '../tools/registry.js';
import type { AgentEvent } from './events.js';

/** The top level's agent path; a child of it is `main/task-1`, a grandchild `main/task-1/task-2`. */
export const MAIN_AGENT = 'main';
/** How deep delegation goes: `main` is 0; an agent at this depth has no task tool, so a loop of delegation ends. */
export const MAX_AGENT_DEPTH = 2;

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
    record: (body, ts, agent) => parent.record(body, ts, agent),
    listen: () => () => undefined,
    message: () => undefined,
    compaction: () => undefined,
    audit: (record) => parent.audit(record),
    close: () => undefined,
  };
}

/** The events of a child that its parent passes on: not the streamed deltas (they would mix into the parent's text), not its result (the parent's consumers end on a result). */
export function passesOn(event: AgentEvent): boolean {
  return event.type !== 'text_delta' && event.type !== 'thinking_delta' && event.type !== 'result';
}

/** The task tool of an agent that may delegate: the agents it may start. */
export function taskToolFor(agents: readonly AgentDefinition[]) {
  return createTaskTool({ agents });
}
