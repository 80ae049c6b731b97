import { readFileSync } from 'node:fs';
import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import { answerChoices } from './answer.js';
import { resolveToolPath } from '../permissions/path-glob.js';
import { visible } from './visible.js';
import { commonEnds } from './common-ends.js';

/**
 * What the permission dialog shows, as data: the terminal UI draws it, the permission layer
 * decides what is in it. Model-written text is made visible here (never obeyed by the terminal).
 */

export type DialogLine =
  | { kind: 'command'; text: string }
  | { kind: 'text'; text: string }
  /** A diff line with the line number in the file (old numbering for `del`, new for `add`). */
  | { kind: 'add' | 'del' | 'same'; line: number; text: string };

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

/** The line in the file where `oldText` starts (1-based), or 1 when the file cannot be read or it is not there. */
function startLine(workspace: string, file: string, oldText: string): number {
  const resolved = resolveToolPath(file, workspace);
  if (!resolved.inside) return 1;
  try {
    const content = readFileSync(resolved.absolute, 'utf8');
    const at = content.indexOf(oldText);
    return at < 0 ? 1 : content.slice(0, at).split('\n').length;
  } catch {
    return 1;
  }
}

/** The edit as a diff with line numbers; lines both ends share are shown once as context. */
export function numberedDiff(oldText: string, newText: string, first: number): DialogLine[] {
  const before = oldText.split('\n');
  const after = newText.split('\n');
  const { head, tail } = commonEnds(before, after);
  const lines: DialogLine[] = [];
  for (let i = 0; i < head; i++) lines.push({ kind: 'same', line: first + i, text: visible(before[i]!) });
  for (let i = head; i < before.length - tail; i++) lines.push({ kind: 'del', line: first + i, text: visible(before[i]!) });
  for (let i = head; i < after.length - tail; i++) lines.push({ kind: 'add', line: first + i, text: visible(after[i]!) });
  for (let i = before.length - tail; i < before.length; i++) {
    lines.push({ kind: 'same', line: first + i + (after.length - before.length), text: visible(before[i]!) });
  }
  return lines;
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
      const oldText = String(fields.old_string ?? '');
      const first = typeof fields.path === 'string' ? startLine(workspace, fields.path, oldText) : 1;
      const all: DialogLine[] = fields.replace_all === true ? [{ kind: 'text', text: '(every occurrence)' }] : [];
      return {
        ...base,
        title: `Edit ${file ?? 'a file'}?`,
        lines: [...all, ...numberedDiff(oldText, String(fields.new_string ?? ''), first)],
      };
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
