import { closeSync, readFileSync } from 'node:fs';
import type { Tool } from '../types.js';
import { writeFileAtomic, type WriteFileAtomic } from '../../system/atomic-write.js';
import { fsErrorResult } from '../fs-errors.js';
import { openRegularFile } from '../open-regular.js';
import { fail, ok } from '../result.js';
import { resolveInWorkspace } from '../workspace.js';
import { unpairedSurrogate } from '../well-formed.js';

interface EditFileInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/**
 * `edit_file`, with the writer injectable so tests can make the write fail half way.
 * @example const tool = createEditFileTool({ write: (p, c) => writeFileAtomic(p, c, { rename: failing }) });
 */
export function createEditFileTool(options: { write?: WriteFileAtomic } = {}): Tool {
  const write = options.write ?? writeFileAtomic;
  return {
    name: 'edit_file',
    description:
      'Replace an exact piece of text in an existing file. `old_string` must match the file exactly, ' +
      'including whitespace and indentation (copy it from read_file output, without the line-number prefix), ' +
      'and must occur exactly once unless `replace_all` is true. Include enough surrounding lines to make it ' +
      'unique. The write is atomic. To create a file, use write_file.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace root.' },
        old_string: { type: 'string', description: 'The exact text to replace.' },
        new_string: { type: 'string', description: 'The text to put in its place.' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence instead of exactly one. Default false.' },
      },
      required: ['path', 'old_string', 'new_string'],
      additionalProperties: false,
    },
    readOnly: false,
    async execute({ input, workspace, checkpoints }) {
      const { path: requested, old_string: oldText, new_string: newText, replace_all: all = false } = input as EditFileInput;
      if (oldText === '') return fail('old_string is empty. To create a file or replace all of it, use write_file.');
      if (oldText === newText) return fail('old_string and new_string are the same, so there is nothing to change.');
      const malformed = unpairedSurrogate(newText, 'new_string');
      if (malformed) return malformed;
      const resolved = await resolveInWorkspace(workspace, requested);
      if (!resolved.ok) return fail(resolved.message);
      const { absolute, display } = resolved;
      try {
        const opened = openRegularFile(absolute, display);
        if ('result' in opened) return opened.result;
        let buffer: Buffer;
        try {
          buffer = readFileSync(opened.fd);
        } finally {
          closeSync(opened.fd);
        }
        if (buffer.includes(0)) return fail(`${display} looks like a binary file (it contains NUL bytes); edit_file only edits text.`);
        const text = decodeUtf8(buffer);
        if (text === null) {
          return fail(
            `${display} is not valid UTF-8 (it has bytes of another encoding, such as Latin-1). edit_file would have to ` +
              'change those bytes, so it refuses; the file is unchanged. Use bash (e.g. sed or iconv) for this file.',
          );
        }
        const lines = occurrenceLines(text, oldText);
        if (lines.length === 0) {
          return fail(
            `old_string was not found in ${display}. It must match exactly, including whitespace, indentation and line ` +
              'endings. Use read_file to see the current text and copy it without the line-number prefix.',
          );
        }
        if (lines.length > 1 && !all) {
          return fail(
            `old_string occurs ${lines.length} times in ${display} (lines ${lines.join(', ')}). ` +
              'Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true.',
          );
        }
        // split/join, not String.replace, so `$&` and friends in new_string stay literal.
        const updated = all ? text.split(oldText).join(newText) : replaceFirst(text, oldText, newText);
        const kept = await checkpoints?.before(absolute);
        await write(absolute, updated);
        await kept?.after();
        const count = all ? lines.length : 1;
        return ok(
          `Edited ${display}: replaced ${count} occurrence${count === 1 ? '' : 's'} (line${count === 1 ? '' : 's'} ${lines.slice(0, count).join(', ')}).${kept?.note ? ` ${kept.note}` : ''}`,
        );
      } catch (error) {
        return fsErrorResult(error, display);
      }
    },
  };
}

export const editFileTool: Tool = createEditFileTool();

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text, or null when the bytes are not valid UTF-8 (decoding would replace them with U+FFFD). */
function decodeUtf8(buffer: Buffer): string | null {
  try {
    return strictUtf8.decode(buffer);
  } catch {
    return null;
  }
}

/** 1-based line numbers where each non-overlapping occurrence starts. */
function occurrenceLines(text: string, needle: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    for (let i = scanned; i < at; i++) if (text.charCodeAt(i) === 10) line++;
    scanned = at;
    lines.push(line);
  }
  return lines;
}

function replaceFirst(text: string, oldText: string, newText: string): string {
  const at = text.indexOf(oldText);
  return text.slice(0, at) + newText + text.slice(at + oldText.length);
}
