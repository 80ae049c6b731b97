import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '../types.js';
import { writeFileAtomic, type WriteFileAtomic } from '../../system/atomic-write.js';
import { fsErrorResult } from '../fs-errors.js';
import { fail, ok } from '../result.js';
import { resolveInWorkspace } from '../workspace.js';
import { unpairedSurrogate } from '../well-formed.js';

interface WriteFileInput {
  path: string;
  content: string;
}

/**
 * `write_file`, with the writer injectable for tests.
 * @example const tool = createWriteFileTool({ write: failingWriter });
 */
export function createWriteFileTool(options: { write?: WriteFileAtomic } = {}): Tool {
  const write = options.write ?? writeFileAtomic;
  return {
    name: 'write_file',
    description:
      'Create a file, or replace a whole file, with `content`. Missing parent folders are created. ' +
      'The write is atomic: the file is either fully replaced or left untouched. ' +
      'To change part of an existing file, prefer edit_file; read a file before overwriting it.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace root.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    readOnly: false,
    async execute({ input, workspace, checkpoints }) {
      const { path: requested, content } = input as WriteFileInput;
      const malformed = unpairedSurrogate(content, 'content');
      if (malformed) return malformed;
      const resolved = await resolveInWorkspace(workspace, requested);
      if (!resolved.ok) return fail(resolved.message);
      const { absolute, display, exists } = resolved;
      try {
        if (exists) {
          const info = await stat(absolute);
          if (info.isDirectory()) return fail(`${display} is a directory; give a file path inside it.`);
          if (!info.isFile()) return fail(`${display} is not a regular file; refused.`);
        }
        await mkdir(path.dirname(absolute), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
          // mkdir -p reports a file sitting where a folder should be as EEXIST.
          throw error.code === 'EEXIST' ? Object.assign(error, { code: 'ENOTDIR' }) : error;
        });
        const kept = await checkpoints?.before(absolute);
        const bytes = await write(absolute, content);
        await kept?.after();
        return ok(`${exists ? 'Overwrote' : 'Created'} ${display} (${bytes} bytes written).${kept?.note ? ` ${kept.note}` : ''}`);
      } catch (error) {
        return fsErrorResult(error, display);
      }
    },
  };
}

export const writeFileTool: Tool = createWriteFileTool();
