import { stat } from 'node:fs/promises';
import type { Tool } from '../types.js';
import { fsErrorResult } from '../fs-errors.js';
import { GlobSyntaxError, globNamesSegment, globToRegExp } from '../glob-pattern.js';
import { fail, ok } from '../result.js';
import { withhold } from '../read-gate.js';
import { resolveInWorkspace } from '../workspace.js';
import { SKIPPED_DIRS, comparePaths, walk } from '../walk.js';

const MAX_RESULTS = 1000;
const SPECIAL = /[*?[\]{}\\]/;

interface GlobInput {
  pattern: string;
  path?: string;
}

export const globTool: Tool = {
  name: 'glob',
  description:
    'Find files by name pattern. The pattern is matched against paths relative to `path` (default: the workspace ' +
    'root): `*` and `?` stay within one folder, `**/` spans any number of folders, `{a,b}` and `[abc]` work too. ' +
    'So `*.ts` finds only files directly in `path`, `**/*.ts` finds them at any depth, `src/**/*.{ts,tsx}` ' +
    'below src. Returns workspace-relative paths, sorted. `.git` and `node_modules` are skipped unless the ' +
    `pattern names them. At most ${MAX_RESULTS} results.`,
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, description: 'Glob pattern, e.g. "**/*.test.ts".' },
      path: { type: 'string', description: 'Folder to search in, relative to the workspace root. Default ".".' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  readOnly: true,
  async execute({ input, workspace, signal, readGate }) {
    const { pattern, path: requested = '.' } = input as GlobInput;
    if (pattern.startsWith('/')) {
      return fail(`The pattern "${pattern}" is absolute. Patterns are relative to \`path\`; drop the leading "/".`);
    }
    let regex: RegExp;
    try {
      regex = globToRegExp(pattern);
    } catch (error) {
      if (error instanceof GlobSyntaxError) return fail(`Invalid glob pattern: ${error.message}.`);
      throw error;
    }
    const base = await resolveInWorkspace(workspace, requested);
    if (!base.ok) return fail(base.message);

    // Start the walk at the pattern's literal folder prefix (`src/lib/**` walks only src/lib).
    const segments = pattern.split('/');
    const literal: string[] = [];
    for (const segment of segments.slice(0, -1)) {
      if (SPECIAL.test(segment)) break;
      literal.push(segment);
    }
    const prefix = literal.join('/');
    const start = prefix === '' ? base : await resolveInWorkspace(workspace, `${base.display}/${prefix}`);
    if (!start.ok) return fail(start.message);

    try {
      const info = await stat(base.absolute);
      if (!info.isDirectory()) return fail(`${base.display} is a file, not a folder; give a folder as \`path\`.`);
      const startInfo = await stat(start.absolute).catch(() => undefined);
      const found: string[] = [];
      if (startInfo?.isDirectory()) {
        const skipDirs = SKIPPED_DIRS.filter((dir) => !globNamesSegment(pattern, dir));
        for await (const entry of walk(start.absolute, { skipDirs, signal })) {
          const relative = prefix === '' ? entry.relative : `${prefix}/${entry.relative}`;
          if (regex.test(relative)) found.push(base.display === '.' ? relative : `${base.display}/${relative}`);
        }
      }
      // Read rules cover what glob lists too: a covered path is left out, and the result says so.
      const { shown, note } = withhold(found, readGate, '');
      const matches = found.filter((file) => shown.has(file));
      const withheld = note ? `\n${note}` : '';
      if (matches.length === 0) {
        const where = base.display === '.' ? 'the workspace root' : base.display;
        const hint = pattern.includes('/')
          ? ''
          : ` The pattern only matches directly in ${where}; try "**/${pattern}" to search subfolders.`;
        return fail(`No files match "${pattern}" in ${where}${note ? ' that may be shown' : ''}.${hint}${withheld}`);
      }
      matches.sort(comparePaths);
      const notice =
        matches.length > MAX_RESULTS
          ? `\n[Showing the first ${MAX_RESULTS} of ${matches.length} matches. Use a narrower pattern or path.]`
          : '';
      return ok(matches.slice(0, MAX_RESULTS).join('\n') + notice + withheld);
    } catch (error) {
      return fsErrorResult(error, base.display);
    }
  },
};
