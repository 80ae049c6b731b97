import { stat } from 'node:fs/promises';
import type { Tool } from '../types.js';
import { looksBinary } from '../binary.js';
import { fsErrorResult } from '../fs-errors.js';
import { notRegular } from '../open-regular.js';
import { GlobSyntaxError, globNamesSegment, globToRegExp } from '../glob-pattern.js';
import { findOnPath, type GrepEngine, type GrepMatch } from '../grep-engine.js';
import { grepJs } from '../grep-js.js';
import { ripgrepEngine } from '../grep-ripgrep.js';
import { fail, ok } from '../result.js';
import { MAX_RESULT_CHARS } from '../truncate.js';
import { withhold } from '../read-gate.js';
import { resolveInWorkspace } from '../workspace.js';
import { SKIPPED_DIRS, comparePaths } from '../walk.js';

const MAX_LINE_CHARS = 300;

interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  ignore_case?: boolean;
}

/** `auto` uses ripgrep when it is on the PATH, else JavaScript; tests pin one or pass their own. */
export type GrepEngineChoice = 'auto' | 'ripgrep' | 'js' | GrepEngine;

/**
 * `grep`, with the search engine injectable so tests can compare ripgrep and JavaScript.
 * @example const jsOnly = createGrepTool({ engine: 'js' });
 */
export function createGrepTool(options: { engine?: GrepEngineChoice } = {}): Tool {
  let engine: Promise<GrepEngine> | undefined;
  const pick = () => (engine ??= chooseEngine(options.engine ?? 'auto'));
  return {
    name: 'grep',
    description:
      'Search file contents with a regular expression. Prints one line per match as `path:line:text`, sorted ' +
      'by path then line number, paths relative to the workspace root. `path` is a folder (searched recursively, ' +
      'default the workspace root) or a single file. `glob` limits which files are searched: without a `/` it ' +
      'matches file names at any depth (`*.ts`, `*.{js,jsx}`), with a `/` the path below `path` ' +
      '(`src/**/*.ts`); a leading `!` excludes. Hidden files are searched; `.git`, `node_modules` and binary ' +
      'files are skipped. Use common regex syntax (classes, `\\b`, `|`, groups); no look-around or backreferences.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, description: 'Regular expression to look for in each line.' },
        path: { type: 'string', description: 'Folder or file to search, relative to the workspace root. Default ".".' },
        glob: { type: 'string', minLength: 1, description: 'Only search files matching this glob, e.g. "*.ts".' },
        ignore_case: { type: 'boolean', description: 'Match case-insensitively. Default false.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute({ input, workspace, signal, readGate }) {
      const { pattern, path: requested = '.', glob, ignore_case: ignoreCase = false } = input as GrepInput;
      if (glob !== undefined) {
        try {
          globToRegExp(glob.replace(/^!?\/?/, ''));
        } catch (error) {
          if (error instanceof GlobSyntaxError) return fail(`Invalid glob: ${error.message}.`);
          throw error;
        }
      }
      const resolved = await resolveInWorkspace(workspace, requested);
      if (!resolved.ok) return fail(resolved.message);
      const { absolute, display } = resolved;
      let file: boolean;
      try {
        const info = await stat(absolute);
        file = !info.isDirectory();
        if (file && !info.isFile()) return notRegular(display);
        if (file && (await looksBinary(absolute))) return fail(`${display} is a binary file; grep searches text only.`);
      } catch (error) {
        return fsErrorResult(error, display);
      }
      const skipDirs = SKIPPED_DIRS.filter((dir) => glob === undefined || !globNamesSegment(glob, dir));
      const outcome = await (await pick())({ pattern, ignoreCase, root: absolute, file, glob, skipDirs, signal });
      if (outcome.kind === 'invalid-pattern') {
        return fail(`Invalid regular expression ${JSON.stringify(pattern)}: ${outcome.message}`);
      }
      if (outcome.kind === 'too-slow') return fail(`grep ${JSON.stringify(pattern)}: ${outcome.message}.`);
      const toDisplay = (p: string) => (file ? display : display === '.' ? p : `${display}/${p}`);
      const skipped = (outcome.longLines ?? []).map((l) => `${toDisplay(l.path)} (${l.lines})`);
      const longNote = skipped.length === 0 ? '' : `\n[Lines over 64 MiB were not searched: ${skipped.slice(0, 10).join(', ')}.]`;
      const found = outcome.matches.map((m) => ({ ...m, path: toDisplay(m.path) }));
      // Read rules cover every file grep opens, not only its `path`: a covered file's lines are withheld.
      const { shown, note } = withhold(
        found.map((m) => m.path),
        readGate,
        'matches in ',
      );
      const matches = found.filter((m) => shown.has(m.path));
      const withheld = note ? `\n${note}` : '';
      if (matches.length === 0) {
        const folder = display === '.' ? 'the workspace' : display;
        const where = glob === undefined ? folder : `${folder} (files matching ${glob})`;
        return fail(
          `No matches for ${JSON.stringify(pattern)} in ${where}${note ? ' that may be shown' : ''}.${ignoreCase || note ? '' : ' Try ignore_case: true or a looser pattern.'}${longNote}${withheld}`,
        );
      }
      return ok(formatMatches(matches, outcome.truncated) + longNote + withheld);
    },
  };
}

export const grepTool: Tool = createGrepTool();

/** Sorted `path:line:text` lines within the result cap, with a notice when some are left out. */
export function formatMatches(matches: GrepMatch[], truncated: boolean): string {
  const sorted = [...matches].sort((a, b) => comparePaths(a.path, b.path) || a.line - b.line);
  const budget = MAX_RESULT_CHARS - 300;
  const lines: string[] = [];
  let used = 0;
  for (const m of sorted) {
    let text = m.text.endsWith('\r') ? m.text.slice(0, -1) : m.text;
    if (text.length > MAX_LINE_CHARS) text = `${text.slice(0, MAX_LINE_CHARS)}…`;
    const line = `${m.path}:${m.line}:${text}`;
    if (used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  const files = new Set(sorted.map((m) => m.path)).size;
  if (lines.length < sorted.length || truncated) {
    const total = truncated ? `more than ${sorted.length}` : String(sorted.length);
    lines.push(
      `[Showing ${lines.length} of ${total} matching lines in ${files}${truncated ? '+' : ''} files. ` +
        'Narrow the search with a more specific pattern, `path` or `glob`.]',
    );
  }
  return lines.join('\n');
}

async function chooseEngine(choice: GrepEngineChoice): Promise<GrepEngine> {
  if (typeof choice === 'function') return choice;
  if (choice === 'js') return grepJs;
  const rg = await findOnPath('rg');
  if (rg) return ripgrepEngine(rg);
  if (choice === 'ripgrep') throw new Error('grep: ripgrep (rg) was requested but is not on the PATH');
  return grepJs;
}
