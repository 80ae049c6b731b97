import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Diff } from '@agentclientprotocol/sdk';
import type { ToolCall } from '../../machines/types.js';

/** Files larger than this are not read for a diff: the editor gets the changed text only. */
const MAX_DIFF_BYTES = 1 << 20;

/** The tools whose calls the editor shows as a diff. */
export function changesFile(call: ToolCall): boolean {
  return call.name === 'edit_file' || call.name === 'write_file';
}

function input(call: ToolCall): Record<string, unknown> {
  return call.input && typeof call.input === 'object' ? (call.input as Record<string, unknown>) : {};
}

/**
 * The file's text as it is now, or null when it does not exist, is too large or is not inside the
 * workspace (the tool itself refuses such a path; the diff must not read it either).
 */
export function currentText(call: ToolCall, workspace: string): string | null {
  const file = input(call).path;
  if (typeof file !== 'string') return null;
  const absolute = path.resolve(workspace, file);
  const relative = path.relative(workspace, absolute);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  try {
    if (statSync(absolute).size > MAX_DIFF_BYTES) return null;
    const text = readFileSync(absolute, 'utf8');
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

/**
 * What the call would change, as the editor's diff: the whole file before and after where it can
 * be read (so the editor can place the change), else the replaced text alone. Null for other tools.
 * @example proposedDiff({ id: '1', name: 'edit_file', input: { path: 'a.ts', old_string: 'x', new_string: 'y' } }, '/ws')
 * // { path: '/ws/a.ts', oldText: '...x...', newText: '...y...' }
 */
export function proposedDiff(call: ToolCall, workspace: string): Diff | null {
  if (!changesFile(call)) return null;
  const fields = input(call);
  if (typeof fields.path !== 'string') return null;
  const absolute = path.resolve(workspace, fields.path);
  const before = currentText(call, workspace);
  if (call.name === 'write_file') {
    return { path: absolute, oldText: before, newText: typeof fields.content === 'string' ? fields.content : '' };
  }
  const oldString = typeof fields.old_string === 'string' ? fields.old_string : '';
  const newString = typeof fields.new_string === 'string' ? fields.new_string : '';
  if (before !== null && oldString !== '' && before.includes(oldString)) {
    // split/join, not String.replace: `$&` in new_string stays literal, as edit_file does it.
    const after = fields.replace_all === true ? before.split(oldString).join(newString) : replaceFirst(before, oldString, newString);
    return { path: absolute, oldText: before, newText: after };
  }
  return { path: absolute, oldText: oldString, newText: newString };
}

/** The absolute path a file-changing call names, or null. */
export function diffPath(call: ToolCall, workspace: string): string | null {
  const file = input(call).path;
  return changesFile(call) && typeof file === 'string' ? path.resolve(workspace, file) : null;
}

/** The diff of a change that happened: the text read before the tool ran, and the file now. */
export function appliedDiff(call: ToolCall, workspace: string, before: string | null): Diff | null {
  const fields = input(call);
  if (!changesFile(call) || typeof fields.path !== 'string') return null;
  const after = currentText(call, workspace);
  if (after === null) return proposedDiff(call, workspace);
  return { path: path.resolve(workspace, fields.path), oldText: before, newText: after };
}

function replaceFirst(text: string, oldString: string, newString: string): string {
  const at = text.indexOf(oldString);
  return `${text.slice(0, at)}${newString}${text.slice(at + oldString.length)}`;
}
