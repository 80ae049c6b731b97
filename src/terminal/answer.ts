import path from 'node:path';
import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import type { PromptOutcome } from '../permissions/types.js';
import { alwaysRules } from './request-view.js';
import { visible } from './visible.js';
import { parseRules } from '../permissions/rules.js';
import { addAllowRule, localSettingsPath } from '../settings/settings.js';

/**
 * What a person can answer to a permission question, and what each answer decides. Every
 * prompt (the line prompt of `-p`, the terminal UI's dialog) asks the person and hands the
 * answer here; the decision and the saving of rules are made once, in this file.
 */
export type PermissionAnswer =
  | { kind: 'yes' }
  /** Yes, and save the prefix rules so it is not asked again. */
  | { kind: 'always' }
  /** No: the task stops with permission_denied. */
  | { kind: 'no' }
  /** No, and tell the model what to do instead: the task goes on. */
  | { kind: 'feedback'; text: string }
  /** Nobody answered: input closed or the task was interrupted. */
  | { kind: 'unanswered'; why: string };

export interface AnswerContext {
  call: ToolCall;
  /** The `ask` decision that was put to the person. */
  pending: PermissionDecision;
  /** Absolute workspace root: "always" writes `<workspace>/.xagent/settings.local.json`. */
  workspace: string;
  /** Told what was saved, or why it could not be. */
  note?: (line: string) => void;
}

export interface AnswerChoices {
  /** The rules "always" would save; empty when no rule could allow the call again. */
  rules: string[];
  /** Where they would go, relative to the workspace. */
  file: string;
}

/** What "always" would save for this call, and where. */
export function answerChoices(call: ToolCall, workspace: string): AnswerChoices {
  return { rules: alwaysRules(call, workspace), file: path.relative(workspace, localSettingsPath(workspace)) };
}

/**
 * The decision for one answer.
 * @example decisionFor({ kind: 'feedback', text: 'use pnpm' }, { call, pending, workspace })
 * // { decision: { behavior: 'deny', continueWithFeedback: true, message: 'The user declined ... use pnpm', ... }, savedRules: [] }
 */
export function decisionFor(answer: PermissionAnswer, { call, pending, workspace, note }: AnswerContext): PromptOutcome {
  const asked = `asked because ${pending.decidedBy}`;
  switch (answer.kind) {
    case 'yes':
      return { decision: { behavior: 'allow', decidedBy: `user: yes (${asked})` }, savedRules: [] };
    case 'always':
      return saveAlways(alwaysRules(call, workspace), workspace, asked, note);
    case 'no':
      return refuse(call, `user: no (${asked})`);
    case 'feedback':
      return {
        decision: {
          behavior: 'deny',
          continueWithFeedback: true,
          decidedBy: `user: no, with instructions (${asked})`,
          message: `The user declined this ${call.name} call and said what to do instead: ${answer.text}`,
        },
        savedRules: [],
      };
    case 'unanswered':
      return refuse(call, `user: ${answer.why} (${asked})`);
    default: {
      const unreachable: never = answer;
      return unreachable;
    }
  }
}

function refuse(call: ToolCall, decidedBy: string): PromptOutcome {
  return { decision: { behavior: 'deny', decidedBy, message: `The user did not allow this ${call.name} call.` }, savedRules: [] };
}

function saveAlways(rules: string[], workspace: string, asked: string, note?: (line: string) => void): PromptOutcome {
  if (rules.length === 0)
    return { decision: { behavior: 'allow', decidedBy: `user: always, but no rule can name this call (${asked})` }, savedRules: [] };
  try {
    const file = addAllowRule(workspace, rules);
    note?.(`Saved ${rules.map((r) => `"${visible(r)}"`).join(', ')} to ${file}.`);
    return {
      decision: {
        behavior: 'allow',
        decidedBy: `user: always (${asked}); saved allow ${rules.map((r) => `"${r}"`).join(', ')} to ${file}`,
      },
      savedRules: parseRules(rules, 'allow', file),
    };
  } catch (error) {
    // The person said yes; failing to remember it must not turn that into a no.
    note?.(`Could not save the rule: ${(error as Error).message}. Allowed this once.`);
    return {
      decision: { behavior: 'allow', decidedBy: `user: always, not saved: ${(error as Error).message} (${asked})` },
      savedRules: [],
    };
  }
}
