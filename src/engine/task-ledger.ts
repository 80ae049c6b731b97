import type { TaskLimits } from '../../machines/task-limits.js';
import type { Clock } from './clock.js';

/** The limits of the task the person started: rounds, tool calls, and time on the task's clock. */
export interface TaskBudget {
  maxTurns: number;
  maxToolCalls: number;
  timeoutMs: number;
}

/**
 * What every agent of one task has spent, against the task's limits: the main agent and each
 * subagent count here, so `--max-tool-calls 4` means four tool calls in all, however they were
 * delegated. A tool call counts when it starts and a round when its request goes out (a failed
 * request gives its round back), so agents running at once can never start more than the limit.
 * Every agent's chart reads it through `limits` (its guards, the check before a call, a batch's room).
 * @example const ledger = new TaskLedger({ maxTurns: 10, maxToolCalls: 4, timeoutMs: 60_000 }, clock); ledger.toolStarted();
 */
export class TaskLedger {
  private turns = 0;
  private toolCalls = 0;
  private readonly deadlineAt: number;

  constructor(
    readonly budget: TaskBudget,
    private readonly clock: Clock,
  ) {
    this.deadlineAt = clock.now() + budget.timeoutMs;
  }

  /** The chart's view: what is left for any agent of the task. */
  readonly limits: TaskLimits = {
    toolCallsLeft: () => this.budget.maxToolCalls - this.toolCalls,
    turnsLeft: () => this.budget.maxTurns - this.turns,
  };

  toolStarted(): void {
    this.toolCalls += 1;
  }

  roundStarted(): void {
    this.turns += 1;
  }

  /** A request that failed was no round (the task stops, or compacts and asks again). */
  roundFailed(): void {
    this.turns -= 1;
  }

  /** What every agent of the task has spent so far. */
  get spent(): { turns: number; toolCalls: number } {
    return { turns: this.turns, toolCalls: this.toolCalls };
  }

  /** What is left of the task's limits: a subagent's budget, given as its input. */
  left(): TaskBudget {
    return {
      maxTurns: Math.max(0, this.budget.maxTurns - this.turns),
      maxToolCalls: Math.max(0, this.budget.maxToolCalls - this.toolCalls),
      timeoutMs: this.timeLeft(),
    };
  }

  /** The task's time left on its clock (the person's waits excluded), at least 1 ms: a subagent's deadline. */
  timeLeft(): number {
    return Math.max(1, this.deadlineAt - this.clock.now());
  }
}
