import { readFileSync } from 'node:fs';
import type { AgentContext } from '@agentclientprotocol/sdk';
import type { WriteFileAtomic } from '../system/atomic-write.js';
import { createEditFileTool } from '../tools/builtin/edit-file.js';
import { createWriteFileTool } from '../tools/builtin/write-file.js';
import { fail, ok } from '../tools/result.js';
import type { Tool } from '../tools/types.js';
import { resolveInWorkspace } from '../tools/workspace.js';

/**
 * What the editor was asked to write, by absolute path: the text before and after. The session's
 * updates take the diff from here, since the disk does not show a write that went to a buffer.
 */
export class EditorWrites {
  private readonly written = new Map<string, { oldText: string | null; newText: string }>();

  record(path: string, oldText: string | null, newText: string): void {
    this.written.set(path, { oldText, newText });
  }

  /** The last write to `path`, once: a later call without a write gets null. */
  take(path: string): { oldText: string | null; newText: string } | null {
    const entry = this.written.get(path) ?? null;
    this.written.delete(path);
    return entry;
  }
}

interface EditorFiles {
  /** Where the writes are noted for the diff the editor is shown. */
  writes: EditorWrites;
  client: Pick<AgentContext, 'request'>;
  /** Asked at each call: the session's id is known only once the run is prepared. */
  sessionId: () => string;
  /** Whether the editor also offers fs/read_text_file (edit_file then sees unsaved edits). */
  canRead: boolean;
}

/**
 * The writer the built-in write_file and edit_file take, sending the text to the editor
 * (`fs/write_text_file`): the editor updates its buffer (and the file), so an open file never
 * goes stale under the person. The tools keep their own checks (confinement, directories,
 * binary files) and call this with the resolved absolute path only.
 */
function editorWriter({ client, sessionId, writes }: EditorFiles, before?: string): WriteFileAtomic {
  return async (target, content) => {
    // The built-in edit path runs only where the buffer equals the disk, so the disk is the old text.
    writes.record(target, before ?? diskText(target), content);
    try {
      await client.request('fs/write_text_file', { sessionId: sessionId(), path: target, content });
    } catch (error) {
      // A refusal is the model's to work around (as a file it may not write), not a crashed tool.
      throw Object.assign(new Error(`the editor did not write ${target}: ${(error as Error).message}`), { code: 'EPERM' });
    }
    return Buffer.byteLength(content);
  };
}

/** `write_file` through the editor: the built-in, its write sent to the editor. */
export function editorWriteFileTool(files: EditorFiles): Tool {
  return createWriteFileTool({ write: editorWriter(files) });
}

interface EditInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/**
 * `edit_file` through the editor. Where the editor's buffer holds what the disk holds, the
 * built-in does the edit (all its checks and messages) and its write goes to the editor. Where
 * the buffer has unsaved edits, the edit is made on the buffer's text, with the built-in's rules
 * (old_string exactly once unless replace_all), so the person's unsaved work is kept.
 */
export function editorEditFileTool(files: EditorFiles): Tool {
  const builtin = createEditFileTool({ write: editorWriter(files) });
  if (!files.canRead) return builtin;
  return {
    ...builtin,
    async execute(context) {
      const input = context.input as EditInput;
      const resolved = await resolveInWorkspace(context.workspace, input.path);
      if (!resolved.ok || input.old_string === '' || input.old_string === input.new_string) return builtin.execute(context);
      let buffer: string;
      try {
        ({ content: buffer } = await files.client.request(
          'fs/read_text_file',
          { sessionId: files.sessionId(), path: resolved.absolute },
          { cancellationSignal: context.signal, stopWaitingOnCancel: true },
        ));
      } catch {
        context.signal.throwIfAborted();
        return builtin.execute(context);
      }
      if (buffer === diskText(resolved.absolute)) return builtin.execute(context);
      const count = buffer.split(input.old_string).length - 1;
      if (count === 0) {
        return fail(
          `old_string was not found in ${resolved.display} (as open in the editor, with unsaved changes). It must match ` +
            'exactly, including whitespace and indentation. Use read_file to see the current text.',
        );
      }
      if (count > 1 && input.replace_all !== true) {
        return fail(
          `old_string occurs ${count} times in ${resolved.display} (as open in the editor). Add surrounding lines so it ` +
            'matches exactly one place, or set replace_all to true.',
        );
      }
      // split/join, not String.replace: `$&` in new_string stays literal.
      const parts = buffer.split(input.old_string);
      const updated =
        input.replace_all === true ? parts.join(input.new_string) : parts[0] + input.new_string + parts.slice(1).join(input.old_string);
      await editorWriter(files, buffer)(resolved.absolute, updated);
      const replaced = input.replace_all === true ? count : 1;
      return ok(
        `Edited ${resolved.display} (in the editor, with its unsaved changes): replaced ${replaced} occurrence${replaced === 1 ? '' : 's'}.`,
      );
    },
  };
}

function diskText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
