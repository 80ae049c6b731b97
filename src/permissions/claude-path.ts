import os from 'node:os';
import path from 'node:path';
import { globToRegExp } from './path-glob.js';

/**
 * Path patterns of rules written with Claude Code's tool names (`Read(*.pem)`, `Edit(/src/**)`),
 * read as Claude Code's documentation says: gitignore semantics, with four anchors.
 *
 * | pattern            | relative to                                                   |
 * | ------------------ | ------------------------------------------------------------- |
 * | `//abs/path`       | the file system root                                          |
 * | `~/path`           | the home directory                                            |
 * | `/path`            | the settings file's project (the folder holding `.claude`)    |
 * | `path`, `./path`   | the workspace                                                 |
 *
 * As in a .gitignore, a pattern with no `/` but a trailing one (`*.pem`, `.env`, `secrets/`)
 * matches at any depth; one with a `/` is anchored. `*` stays inside a segment, `**` spans
 * segments, and a pattern that matches a folder matches everything inside it.
 */

export interface ClaudePathBases {
  workspace: string;
  /** Where `/path` patterns start; default the workspace. */
  root?: string;
  /** Where `~/path` patterns start; default $HOME. */
  home?: string;
}

interface Compiled {
  base: string;
  regex: RegExp;
}

const cache = new Map<string, Compiled>();

function homeDir(): string {
  return process.env.HOME || os.homedir();
}

/** The base folder and the anchored or floating glob of a pattern. */
export function compileClaudePath(pattern: string, bases: ClaudePathBases): Compiled {
  const key = `${pattern}\0${bases.workspace}\0${bases.root ?? ''}\0${bases.home ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let base = bases.workspace;
  let rest = pattern;
  let anchored = true;
  if (rest.startsWith('//')) {
    base = '/';
    rest = rest.slice(2);
  } else if (rest === '~' || rest.startsWith('~/')) {
    base = bases.home ?? homeDir();
    rest = rest.slice(2);
  } else if (rest.startsWith('/')) {
    base = bases.root ?? bases.workspace;
    rest = rest.slice(1);
  } else if (rest.startsWith('./')) {
    while (rest.startsWith('./')) rest = rest.slice(2);
  } else {
    anchored = rest.replace(/\/+$/, '').includes('/');
  }
  rest = rest.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  const glob = rest === '' ? '**' : rest;
  const source = globToRegExp(glob).source.slice(1, -1);
  const compiled = { base: path.resolve(base), regex: new RegExp(anchored ? `^${source}$` : `^(?:.*/)?${source}$`, 's') };
  cache.set(key, compiled);
  return compiled;
}

/**
 * True if a Claude Code path pattern matches an absolute path (or a folder above it, below the
 * pattern's base).
 * @example matchClaudePath('*.pem', '/ws/certs/deep.pem', { workspace: '/ws' }) // true
 * @example matchClaudePath('/src/**', '/ws/lib/a.ts', { workspace: '/ws' }) // false
 */
export function matchClaudePath(pattern: string, absolute: string, bases: ClaudePathBases): boolean {
  const { base, regex } = compileClaudePath(pattern, bases);
  const relative = path.relative(base, path.resolve(absolute));
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return false;
  const segments = relative === '' ? [] : relative.split(path.sep);
  if (segments.length === 0) return regex.test('');
  for (let i = 1; i <= segments.length; i++) {
    if (regex.test(segments.slice(0, i).join('/'))) return true;
  }
  return false;
}
