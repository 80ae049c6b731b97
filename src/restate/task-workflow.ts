import { timingSafeEqual } from 'node:crypto';
import * as restate from '@restatedev/restate-sdk';
import { isCallAnswer } from './call-answer-schema.js';
import { answerPromiseName } from './durable-prompt.js';
import { APPROVAL_TOKEN_KEY, runDurableTask, type WorkerServices } from './run-durable-task.js';
import { STATUS_KEY } from './status-keeper.js';
import { tokenHash } from './task-spec.js';
import { TASK_SERVICE, type GivenAnswer, type TaskStatus } from './task-status.js';

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
      // The input is checked against the task spec's schema first thing (run-durable-task.ts), whoever sent it.
      run: (ctx: restate.WorkflowContext, spec: unknown) => runDurableTask(ctx, spec, services),
      status: async (ctx: restate.WorkflowSharedContext): Promise<TaskStatus | null> => ctx.get<TaskStatus>(STATUS_KEY),
      answer: async (ctx: restate.WorkflowSharedContext, request: unknown): Promise<void> => {
        if (!isCallAnswer(request))
          throw new restate.TerminalError(
            'not an answer: {"tool_use_id", "answer": {"kind": "yes" | "no"} | {"kind": "feedback", "text"}, "by"?, "token"?}',
            {
              errorCode: 400,
            },
          );
        const status = await ctx.get<TaskStatus>(STATUS_KEY);
        if (!status) throw new restate.TerminalError(`no task ${ctx.key}`, { errorCode: 404 });
        if (!status.waiting.some((call) => call.tool_use_id === request.tool_use_id)) {
          const waiting = status.waiting.map((call) => call.tool_use_id).join(', ') || 'none';
          throw new restate.TerminalError(`task ${ctx.key} waits for no call ${request.tool_use_id} (waiting: ${waiting})`, {
            errorCode: 409,
          });
        }
        const expected = await ctx.get<string>(APPROVAL_TOKEN_KEY);
        if (expected && !sameHash(tokenHash(request.token ?? ''), expected))
          throw new restate.TerminalError(
            `task ${ctx.key} takes answers only with the approval token given at submit (xagent approve --token, or XAGENT_APPROVAL_TOKEN)`,
            { errorCode: 403 },
          );
        const given: GivenAnswer = { answer: request.answer, by: request.by?.trim() || 'someone unnamed' };
        await ctx.promise<GivenAnswer>(answerPromiseName(request.tool_use_id)).resolve(given);
      },
    },
    options: { workflowRetention: { days: RETENTION_DAYS } },
  });
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
