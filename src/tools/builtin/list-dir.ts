import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '../types.js';
import { fsErrorResult } from '../fs-errors.js';
import { fail, ok } from '../result.js';
import { resolveInWorkspace } from '../workspace.js';
import { comparePaths } from '../walk.js';

const MAX_ENTRIES = 1000;

interface ListDirInput {
  path?: string;
}

export const listDirTool: Tool = {
  name: 'list_dir',
  description:
    'List the entries of one folder in the workspace (not recursive), sorted by name, one per line. ' +
    'Folders end with `/`. `path` defaults to the workspace root. Use glob to find files in subfolders.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Folder path, relative to the workspace root. Default ".".' },
    },
    additionalProperties: false,
  },
  readOnly: true,
  async execute({ input, workspace }) {
    const { path: requested = '.' } = input as ListDirInput;
    const resolved = await resolveInWorkspace(workspace, requested);
    if (!resolved.ok) return fail(resolved.message);
    const { absolute, display } = resolved;
    try {
      const info = await stat(absolute);
      if (!info.isDirectory()) return fail(`${display} is a file, not a folder; use read_file to read it.`);
      const entries = await readdir(absolute, { withFileTypes: true });
      const names = await Promise.all(
        entries.map(async (entry) => {
          if (entry.isDirectory()) return `${entry.name}/`;
          // A link to a folder is listed as a folder; a broken link as a plain name.
          if (entry.isSymbolicLink()) {
            const target = await stat(path.join(absolute, entry.name)).catch(() => undefined);
            return target?.isDirectory() ? `${entry.name}/` : entry.name;
          }
          return entry.name;
        }),
      );
      names.sort(comparePaths);
      if (names.length === 0) return ok(`${display} is empty.`);
      const shown = names.slice(0, MAX_ENTRIES);
      const notice =
        names.length > MAX_ENTRIES
          ? `\n[Showing ${MAX_ENTRIES} of ${names.length} entries. Use glob with a narrower pattern to find specific files.]`
          : '';
      return ok(shown.join('\n') + notice);
    } catch (error) {
      return fsErrorResult(error, display);
    }
  },
};
