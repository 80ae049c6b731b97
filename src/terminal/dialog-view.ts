import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import { answerChoices } from './answer.js';
import { visible } from './visible.js';
import { editedText, editOf, fileTextForDiff, textDiff, type DiffLine } from './edit-diff.js';

/**
 * What the permission dialog shows, as data: the terminal UI draws it, the permission layer
 * decides what is in it. Model-written text is made visible here (never obeyed by the terminal).
 */

export type DialogLine =
  | { kind: 'command'; text: string }
  | { kind: 'text'; text: string }
  /** A line of a file's diff (edit-diff.ts). */
  | DiffLine;

export interface DialogView {
  /** `Run bash?`, `Edit src/a.ts?` */
  title: string;
  /** Why it asks: `default: bash asks`. */
  reason: string;
  lines: DialogLine[];
  /** The rules answer 2 saves, and where; no answer 2 when empty. */
  alwaysRules: string[];
  settingsFile: string;
}

const PREVIEW_LINES = 20;

function input(call: ToolCall): Record<string, unknown> {
  return call.input && typeof call.input === 'object' ? (call.input as Record<string, unknown>) : {};
}

/**
 * An edit_file call as the change it makes to the file, with 3 lines of context numbered as in the
 * file; the old and new text alone when the file cannot be read or the old text is not in it (the
 * tool will say so when it runs).
 */
function editLines(call: ToolCall, workspace: string): DiffLine[] {
  const edit = editOf(call);
  const before = fileTextForDiff(call, workspace);
  const after = before === null ? null : editedText(before, edit);
  return before !== null && after !== null ? textDiff(before, after).lines : textDiff(edit.old_string, edit.new_string).lines;
}

/**
 * @example dialogView(bashCall, { behavior: 'ask', decidedBy: 'default: bash asks' }, '/ws')
 * // { title: 'Run bash?', lines: [{ kind: 'command', text: 'npm test' }], alwaysRules: ['bash(npm test*)'], ... }
 */
export function dialogView(call: ToolCall, pending: PermissionDecision, workspace: string): DialogView {
  const fields = input(call);
  const file = typeof fields.path === 'string' ? visible(fields.path) : undefined;
  const { rules, file: settingsFile } = answerChoices(call, workspace);
  const base = { reason: visible(pending.decidedBy), alwaysRules: rules.map(visible), settingsFile };
  switch (call.name) {
    case 'bash':
      return {
        ...base,
        title: 'Run bash?',
        lines: visible(String(fields.command ?? ''))
          .split('\n')
          .map((text) => ({ kind: 'command', text })),
      };
    case 'edit_file': {
      const all: DialogLine[] = fields.replace_all === true ? [{ kind: 'text', text: '(every occurrence)' }] : [];
      return { ...base, title: `Edit ${file ?? 'a file'}?`, lines: [...all, ...editLines(call, workspace)] };
    }
    case 'write_file': {
      const content = String(fields.content ?? '').split('\n');
      const more: DialogLine[] =
        content.length > PREVIEW_LINES ? [{ kind: 'text', text: `… ${content.length - PREVIEW_LINES} more lines` }] : [];
      const shown = content.slice(0, PREVIEW_LINES).map((text, i): DialogLine => ({ kind: 'add', line: i + 1, text: visible(text) }));
      return { ...base, title: `Write ${file ?? 'a file'} (${content.length} lines)?`, lines: [...shown, ...more] };
    }
    default:
      return {
        ...base,
        title: `Use ${visible(call.name)}${file ? ` on ${file}` : ''}?`,
        lines: visible(JSON.stringify(call.input, null, 2) ?? '')
          .split('\n')
          .map((text) => ({ kind: 'text', text })),
      };
  }
}
