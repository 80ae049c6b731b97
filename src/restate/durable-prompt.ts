import type * as restate from '@restatedev/restate-sdk';
import { decisionFor } from '../terminal/answer.js';
import type { PermissionPrompt } from '../permissions/types.js';
import type { StatusKeeper } from './status-keeper.js';
import { waitingCall, type GivenAnswer } from './task-status.js';

/** The name of the durable promise a call's answer resolves (the task's `answer` handler resolves it). */
export function answerPromiseName(toolUseId: string): string {
  return `answer ${toolUseId}`;
}

/**
 * The permission prompt of a task nobody watches: an `ask` becomes a durable promise of the
 * task's workflow, listed in its status, and the task waits, holding no process (Restate suspends
 * the invocation), until `xagent approve` or `xagent deny` resolves it from any machine. The
 * answer is decided as the terminal's is (permissions/answer.ts): deny without a message stops the
 * task with permission_denied, the model told; with a message the model is told and goes on. The
 * decision names who answered.
 */
export function durablePrompt(ctx: restate.WorkflowContext, status: StatusKeeper, workspace: string): PermissionPrompt {
  return async ({ call, pending }) => {
    status.waitFor(waitingCall(call, pending.decidedBy));
    const given = await ctx.promise<GivenAnswer>(answerPromiseName(call.id));
    status.answered({ tool_use_id: call.id, answer: given.answer.kind, by: given.by });
    const outcome = decisionFor(given.answer, { call, pending, workspace });
    // The trace's decision names the approver: `user alice@laptop: yes (asked because ...)`.
    return { ...outcome, decision: { ...outcome.decision, decidedBy: outcome.decision.decidedBy.replace(/^user:/, `user ${given.by}:`) } };
  };
}
