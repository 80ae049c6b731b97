import * as restate from '@restatedev/restate-sdk';
import { answerPromiseName } from './durable-prompt.js';
import { runDurableTask, type WorkerServices } from './run-durable-task.js';
import { STATUS_KEY } from './status-keeper.js';
import type { TaskSpec } from './task-spec.js';
import { TASK_SERVICE, type CallAnswer, type TaskStatus } from './task-status.js';

/** How long a finished task's result and status stay readable (`xagent wait`, `xagent tasks`). */
const RETENTION_DAYS = 30;

/**
 * xagent's tasks as one Restate workflow, keyed by the task id (which is the session id: one
 * writer per session, as the session lock guarantees on one machine):
 * - `run` (once per id): the task itself (run-durable-task.ts);
 * - `status` (shared): what `xagent tasks <id>` shows, the calls waiting included;
 * - `answer` (shared): `xagent approve` / `xagent deny`, resolving the durable promise one call waits on.
 */
export function taskWorkflow(services: WorkerServices) {
  return restate.workflow({
    name: TASK_SERVICE,
    description: 'xagent tasks: each a durable run of the agent chart, keyed by its session id',
    handlers: {
      run: (ctx: restate.WorkflowContext, spec: TaskSpec) => runDurableTask(ctx, spec, services),
      status: async (ctx: restate.WorkflowSharedContext): Promise<TaskStatus | null> => ctx.get<TaskStatus>(STATUS_KEY),
      answer: async (ctx: restate.WorkflowSharedContext, request: CallAnswer): Promise<void> => {
        const status = await ctx.get<TaskStatus>(STATUS_KEY);
        if (!status) throw new restate.TerminalError(`no task ${ctx.key}`, { errorCode: 404 });
        if (!status.waiting.some((call) => call.tool_use_id === request.tool_use_id)) {
          const waiting = status.waiting.map((call) => call.tool_use_id).join(', ') || 'none';
          throw new restate.TerminalError(`task ${ctx.key} waits for no call ${request.tool_use_id} (waiting: ${waiting})`, {
            errorCode: 409,
          });
        }
        await ctx.promise<CallAnswer['answer']>(answerPromiseName(request.tool_use_id)).resolve(request.answer);
      },
    },
    options: { workflowRetention: { days: RETENTION_DAYS } },
  });
}
