import os from 'node:os';
import path from 'node:path';

/**
 * Claude Code's `@path` imports in CLAUDE.md (and here AGENTS.md): `@docs/style.md`,
 * `@~/.claude/my-prefs.md`, `@/abs/file.md`. Relative paths start at the importing file's folder;
 * nothing inside a code span or a fenced code block is an import (`@scope/pkg` in backticks stays
 * text); an imported file may import others, at most MAX_IMPORT_DEPTH hops from the first.
 */

/** Claude Code's limit: five hops. */
export const MAX_IMPORT_DEPTH = 5;

/** `@` at the start of a line or after white space, then a path without spaces (or with `\ `). */
const IMPORT = /(^|\s)@((?:[^\s\\`]|\\ )+)/g;

/**
 * The files a text imports, resolved to absolute paths, in the order written, each once.
 * @example importsOf('See @docs/a.md and `@not/this`', '/repo') // ['/repo/docs/a.md']
 */
export function importsOf(text: string, dir: string, home: string = process.env.HOME || os.homedir()): string[] {
  const found: string[] = [];
  for (const line of withoutCode(text).split('\n')) {
    for (const match of line.matchAll(IMPORT)) {
      const written = match[2]!.replace(/\\ /g, ' ').replace(/[.,;:!?)\]]+$/, '');
      if (written === '' || written.includes('@')) continue;
      const resolved = written === '~' || written.startsWith('~/') ? path.join(home, written.slice(1)) : path.resolve(dir, written);
      if (!found.includes(resolved)) found.push(resolved);
    }
  }
  return found;
}

/** The text with fenced code blocks and inline code spans blanked out. */
function withoutCode(text: string): string {
  let inFence = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line.replace(/`[^`]*`/g, ' ');
    })
    .join('\n');
}
