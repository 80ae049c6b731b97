import { readFileSync, statSync } from 'node:fs';
import { structuredPatch } from 'diff';
import type { ToolCall } from '../../machines/types.js';
import { resolveToolPath } from '../permissions/path-glob.js';
import { visible } from './visible.js';

/**
 * A file change as Claude Code shows it: the changed lines with `+` / `-` and 3 unchanged lines of
 * context around each change, numbered as in the file, hunks apart marked by a gap. The permission
 * dialog shows an edit this way before it runs, the terminal UI's scrollback after. Model-written
 * text is made visible here.
 */

export type DiffLine =
  /** The line number in the file: the old numbering for `del`, the new one for `add` and `same`. */
  | { kind: 'add' | 'del' | 'same'; line: number; text: string }
  /** Unchanged lines left out between two hunks. */
  | { kind: 'gap' };

export interface FileDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

/** Files larger than this are not read for a diff: the change is shown from the call's own text. */
const MAX_DIFF_BYTES = 1 << 20;
/** Claude Code's context: 3 unchanged lines before and after each change. */
export const DIFF_CONTEXT_LINES = 3;
/** Past this many changed lines the diff is not searched for a shortest form: a whole-file rewrite shows as one. */
const MAX_EDIT_LENGTH = 1000;
/** Nor for longer than this: the terminal waits on it. */
const DIFF_TIMEOUT_MS = 50;

/**
 * The difference of two texts, in hunks with `context` lines of context. `firstLine` numbers the
 * lines when the texts are a piece of a file (an edit's old and new strings), not the whole file.
 * @example textDiff('a\nb\nc\n', 'a\nB\nc\n').lines
 * // [{ kind: 'same', line: 1, text: 'a' }, { kind: 'del', line: 2, text: 'b' }, { kind: 'add', line: 2, text: 'B' }, { kind: 'same', line: 3, text: 'c' }]
 */
export function textDiff(
  before: string,
  after: string,
  { firstLine = 1, context = DIFF_CONTEXT_LINES }: { firstLine?: number; context?: number } = {},
): FileDiff {
  const patch = structuredPatch('', '', before, after, undefined, undefined, {
    context,
    stripTrailingCr: true,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: DIFF_TIMEOUT_MS,
  });
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  // Too many changes to search (undefined): every old line removed, every new one added.
  for (const [index, hunk] of (patch?.hunks ?? wholeHunks(before, after)).entries()) {
    if (index > 0) lines.push({ kind: 'gap' });
    let oldLine = hunk.oldStart + firstLine - 1;
    let newLine = hunk.newStart + firstLine - 1;
    for (const raw of hunk.lines) {
      const text = visible(raw.slice(1).replace(/\r$/, ''));
      if (raw.startsWith('+')) {
        lines.push({ kind: 'add', line: newLine++, text });
        added++;
      } else if (raw.startsWith('-')) {
        lines.push({ kind: 'del', line: oldLine++, text });
        removed++;
      } else if (raw.startsWith(' ')) {
        lines.push({ kind: 'same', line: newLine, text });
        oldLine++;
        newLine++;
      }
      // `\ No newline at end of file` says nothing a person needs here.
    }
  }
  return { lines, added, removed };
}

/** One hunk that removes every old line and adds every new one (the diff gave up). */
function wholeHunks(before: string, after: string) {
  const split = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  const old = split(before);
  const next = split(after);
  return [{ oldStart: 1, newStart: 1, lines: [...old.map((l) => `-${l}`), ...next.map((l) => `+${l}`)] }];
}

/**
 * The file's text after an edit_file call, as the tool makes it (split/join, so `$&` in the new
 * text stays literal), or null when the old text is not in the file.
 * @example editedText('a b a', { old_string: 'a', new_string: 'x', replace_all: true }) // 'x b x'
 */
export function editedText(text: string, edit: { old_string: string; new_string: string; replace_all?: boolean }): string | null {
  const at = edit.old_string === '' ? -1 : text.indexOf(edit.old_string);
  if (at < 0) return null;
  if (edit.replace_all) return text.split(edit.old_string).join(edit.new_string);
  return text.slice(0, at) + edit.new_string + text.slice(at + edit.old_string.length);
}

/**
 * Claude Code's words for a change: `1 addition and 1 removal`, `3 additions`, `2 removals`.
 * @example changeWords(1, 2) // '1 addition and 2 removals'
 */
export function changeWords(added: number, removed: number): string {
  const words = [
    ...(added > 0 ? [`${added} addition${added === 1 ? '' : 's'}`] : []),
    ...(removed > 0 ? [`${removed} removal${removed === 1 ? '' : 's'}`] : []),
  ];
  return words.length > 0 ? words.join(' and ') : 'no changes';
}

function fields(call: ToolCall): Record<string, unknown> {
  return call.input && typeof call.input === 'object' ? (call.input as Record<string, unknown>) : {};
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The edit an edit_file call asks for. */
export function editOf(call: ToolCall): { old_string: string; new_string: string; replace_all: boolean } {
  const input = fields(call);
  return { old_string: str(input.old_string), new_string: str(input.new_string), replace_all: input.replace_all === true };
}

/**
 * The text of the file a write_file or edit_file call names, or null when it is outside the
 * workspace (the tool refuses such a path; the diff must not read it either), missing, too large
 * or binary.
 */
export function fileTextForDiff(call: ToolCall, workspace: string): string | null {
  if (call.name !== 'edit_file' && call.name !== 'write_file') return null;
  const file = fields(call).path;
  if (typeof file !== 'string') return null;
  const resolved = resolveToolPath(file, workspace);
  if (!resolved.inside) return null;
  try {
    if (statSync(resolved.absolute).size > MAX_DIFF_BYTES) return null;
    const text = readFileSync(resolved.absolute, 'utf8');
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

/** The first line edit_file's result names: `Edited a.ts: replaced 1 occurrence (line 12).` */
function resultLine(content: string): number {
  const line = /\(lines? (\d+)/.exec(content);
  return line ? Number(line[1]) : 1;
}

/**
 * What an applied write_file or edit_file call changed, for the scrollback: the file as read
 * before the call ran and as it is after, where both could be read and they differ; else, for an
 * edit, its old and new text numbered from the line the tool's result names (a resumed session,
 * whose files may have changed since). Null for a new file and for other tools.
 * @example appliedChange({ call, resultContent: 'Edited a.ts: replaced 1 occurrence (line 4).', before: null, after: null })
 */
export function appliedChange({
  call,
  resultContent,
  before,
  after,
}: {
  call: ToolCall;
  resultContent: string;
  before: string | null;
  after: string | null;
}): FileDiff | null {
  if (call.name !== 'edit_file' && call.name !== 'write_file') return null;
  if (before !== null && after !== null && before !== after) return textDiff(before, after);
  if (call.name !== 'edit_file') return null;
  const edit = editOf(call);
  return textDiff(edit.old_string, edit.new_string, { firstLine: resultLine(resultContent) });
}
