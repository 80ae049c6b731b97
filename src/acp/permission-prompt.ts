import type { AgentContext, PermissionOption, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { answerChoices, decisionFor, type PermissionAnswer } from '../terminal/answer.js';
import type { PermissionPrompt, PromptOutcome } from '../permissions/types.js';
import { parseRules, type PermissionRule } from '../permissions/rules.js';
import { EDIT_TOOLS } from '../permissions/check-permission.js';
import { visible } from '../terminal/visible.js';
import { proposedDiff } from './file-diff.js';
import { toolView } from './tool-view.js';

/** The option ids we offer; the editor answers with one of them. */
const OPTION = { once: 'allow_once', always: 'allow_always', reject: 'reject_once', rejectAlways: 'reject_always' } as const;

/** Where the deny rules of "reject always" come from: the editor session, not a file. */
const REJECT_ALWAYS_SOURCE = 'the editor (reject always)';

export interface EditorPromptOptions {
  client: Pick<AgentContext, 'request'>;
  sessionId: string;
  workspace: string;
  /** Lines for the person (what "always" saved), to stderr. */
  note: (line: string) => void;
  /** "Always allow" on a file edit: accept edits for the rest of the session, as the terminal UI's option does. */
  acceptEdits?: () => void;
}

/**
 * The permission prompt of an ACP session: the question goes to the editor as
 * `session/request_permission`, with the tool call as the editor shows it (a diff for edits).
 * The answer is decided where the terminal's is (`decisionFor`): allow once is "yes", allow always
 * saves the same prefix rules to `.xagent/settings.local.json` (on a file edit it turns on accept
 * edits for the session instead, as the terminal UI's "don't ask again" does), reject once is "no"
 * (the task stops, the model is told "The user did not allow this ... call." as in the terminal),
 * and reject always is "no" plus deny rules for the rest of this editor session (not saved: a
 * file-wide deny is the person's to write). A cancelled turn, or an editor that does not answer, is
 * unanswered: a denial. An editor that answers `cancelled` while the turn goes on refused by its
 * own policy, nobody having answered: the model is told so and the turn goes on, never "declined by you".
 */
export function editorPermissionPrompt({ client, sessionId, workspace, note, acceptEdits }: EditorPromptOptions): PermissionPrompt {
  return async ({ call, pending, signal }): Promise<PromptOutcome> => {
    const context = { call, pending, workspace, note };
    const answer = (a: PermissionAnswer) => decisionFor(a, context);
    if (signal.aborted) return answer({ kind: 'unanswered', why: 'cancelled before answering' });
    const { rules, file } = answerChoices(call, workspace);
    const saves = rules.map((rule) => `"${visible(rule)}"`).join(', ');
    // An edit allowed "always" means edits, not this one file: accept edits for the session.
    const editsForSession = acceptEdits !== undefined && EDIT_TOOLS.has(call.name);
    const always = editsForSession
      ? 'Always allow edits in this session (accept edits)'
      : rules.length > 0
        ? `Always allow (saves ${saves} to ${file})`
        : null;
    const options: PermissionOption[] = [
      { optionId: OPTION.once, name: 'Allow once', kind: 'allow_once' },
      ...(always ? [{ optionId: OPTION.always, name: always, kind: 'allow_always' as const }] : []),
      { optionId: OPTION.reject, name: 'Reject', kind: 'reject_once' },
      ...(rules.length > 0
        ? [{ optionId: OPTION.rejectAlways, name: `Always reject in this session (${saves})`, kind: 'reject_always' as const }]
        : []),
    ];
    const diff = proposedDiff(call, workspace);
    let response: RequestPermissionResponse;
    try {
      response = await client.request(
        'session/request_permission',
        {
          sessionId,
          toolCall: {
            toolCallId: call.id,
            ...toolView(call, workspace),
            status: 'pending',
            rawInput: call.input,
            ...(diff ? { content: [{ type: 'diff', ...diff }] } : {}),
          },
          options,
        },
        // A cancelled turn must not wait for an editor that never answers.
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
    } catch (error) {
      if (signal.aborted) return answer({ kind: 'unanswered', why: 'cancelled before answering' });
      return answer({ kind: 'unanswered', why: `the editor did not answer: ${(error as Error).message}` });
    }
    if (signal.aborted) return answer({ kind: 'unanswered', why: 'cancelled' });
    if (response.outcome.outcome === 'cancelled') return refusedByEditor(call.name, pending.decidedBy);
    switch (response.outcome.optionId) {
      case OPTION.once:
        return answer({ kind: 'yes' });
      case OPTION.always:
        if (!editsForSession) return answer({ kind: 'always' });
        acceptEdits?.();
        note('Accepting edits for the rest of this session.');
        return {
          decision: { behavior: 'allow', decidedBy: `user: always, accept edits for this session (asked because ${pending.decidedBy})` },
          savedRules: [],
        };
      case OPTION.reject:
        return answer({ kind: 'no' });
      case OPTION.rejectAlways: {
        const refused = answer({ kind: 'no' });
        const denyRules: PermissionRule[] = parseRules(rules, 'deny', REJECT_ALWAYS_SOURCE, workspace);
        note(`Refusing ${saves} for the rest of this session.`);
        return { ...refused, savedRules: denyRules };
      }
      default:
        return answer({ kind: 'unanswered', why: `the editor answered with an option it was not offered (${response.outcome.optionId})` });
    }
  };
}

/**
 * The editor answered `cancelled` though the turn was not cancelled: its own policy refused, no
 * person did. The model reads that (and may try another way); nothing says "declined by you".
 */
function refusedByEditor(tool: string, asked: string): PromptOutcome {
  return {
    decision: {
      behavior: 'deny',
      continueWithFeedback: true,
      decidedBy: `editor: refused by its policy, cancelled without an answer (asked because ${asked})`,
      message: `The editor refused this ${tool} call by its own policy, without asking the user; the call was not run. Try another way, or ask the user to allow it.`,
    },
    savedRules: [],
  };
}
