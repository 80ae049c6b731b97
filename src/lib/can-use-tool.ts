import type { PermissionPrompt } from '../permissions/types.js';

/** What canUseTool answers: run the call, or refuse it (the model reads `message`; `interrupt` also stops the task). */
export type PermissionResult = { behavior: 'allow' } | { behavior: 'deny'; message?: string; interrupt?: boolean };

/**
 * Asked where the CLI would ask the person: a call that no rule or mode decided.
 * @example const canUseTool: CanUseTool = async (name, input) => (name === 'bash' ? { behavior: 'deny', message: 'no shell here' } : { behavior: 'allow' });
 */
export type CanUseTool = (
  toolName: string,
  input: unknown,
  context: { signal: AbortSignal },
) => PermissionResult | Promise<PermissionResult>;

/**
 * The permission layer's prompt, answered by canUseTool. A denial goes back to the model as an
 * is_error result and the task goes on (unless `interrupt`, which stops it with permission_denied);
 * a callback that throws or answers something else denies and stops. Without canUseTool every ask
 * is a denial that stops the task, as in the CLI without a terminal.
 * @example createPermissionPolicy({ mode, rules, workspace, prompt: canUseToolPrompt(options.canUseTool) })
 */
export function canUseToolPrompt(canUseTool: CanUseTool | undefined): PermissionPrompt {
  return async ({ call, pending, signal }) => {
    const asked = `asked because ${pending.decidedBy}`;
    const refuse = (decidedBy: string, message: string) => ({
      decision: { behavior: 'deny' as const, decidedBy, message },
      savedRules: [],
    });
    if (!canUseTool) {
      return refuse(`no canUseTool to ask (${asked})`, `${call.name} needs permission, and no canUseTool callback was given to ask.`);
    }
    let answer: PermissionResult;
    try {
      answer = await canUseTool(call.name, call.input, { signal });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return refuse(`canUseTool threw: ${why} (${asked})`, `Permission to use ${call.name} could not be decided: ${why}`);
    }
    if (answer?.behavior === 'allow') return { decision: { behavior: 'allow', decidedBy: `canUseTool: allow (${asked})` }, savedRules: [] };
    if (answer?.behavior !== 'deny') {
      return refuse(`canUseTool answered neither allow nor deny (${asked})`, `Permission to use ${call.name} was not given.`);
    }
    const message = typeof answer.message === 'string' && answer.message ? answer.message : `Permission to use ${call.name} was denied.`;
    if (answer.interrupt === true) return refuse(`canUseTool: deny, interrupt (${asked})`, message);
    return {
      decision: { behavior: 'deny', continueWithFeedback: true, decidedBy: `canUseTool: deny (${asked})`, message },
      savedRules: [],
    };
  };
}
