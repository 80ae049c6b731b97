import type * as restate from '@restatedev/restate-sdk';
import type { AgentEvent } from '../engine/events.js';
import type { AnsweredCall, TaskStatus, WaitingCall } from './task-status.js';

/** The Restate state key of a task's status (`xagent tasks` reads it through the admin API too). */
export const STATUS_KEY = 'status';

/** A task's status, kept in memory and written whole to the task's Restate state at each change. */
export interface StatusKeeper {
  readonly current: TaskStatus;
  /** A state the chart entered, from the engine's events. */
  follow(event: AgentEvent): void;
  waitFor(call: WaitingCall): void;
  answered(call: AnsweredCall): void;
  change(fields: Partial<TaskStatus>): void;
}

/**
 * Every write is a journal entry, made in the same order on every attempt (they follow the chart,
 * which the journal makes replay the same way). After the attempt ended (the worker suspended the
 * task or lost the server) nothing is written: that attempt's work is over.
 */
export function statusKeeper(ctx: restate.WorkflowContext, attemptEnded: AbortSignal, initial: TaskStatus): StatusKeeper {
  let current = initial;
  const write = (next: TaskStatus) => {
    current = next;
    if (!attemptEnded.aborted) ctx.set(STATUS_KEY, current);
  };
  write(current);
  return {
    get current() {
      return current;
    },
    follow(event) {
      if (event.type !== 'state') return;
      write({ ...current, state: event.name, turn: event.turn, tool_calls: event.tool_call_count });
    },
    waitFor(call) {
      write({ ...current, waiting: [...current.waiting, call] });
    },
    answered(call) {
      write({
        ...current,
        waiting: current.waiting.filter((w) => w.tool_use_id !== call.tool_use_id),
        answered: [...(current.answered ?? []), call],
      });
    },
    change(fields) {
      write({ ...current, ...fields });
    },
  };
}
