import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { globToRegExp } from './glob-pattern.js';

/** What to search. Both engines get the same query and must give the same matches. */
export interface GrepQuery {
  /** Regular expression, in the subset ripgrep and JavaScript agree on. */
  pattern: string;
  ignoreCase: boolean;
  /** Absolute real path of the folder to search, or of the one file when `file` is set. */
  root: string;
  file: boolean;
  /** ripgrep-style glob: without `/` it matches file names at any depth; with `/`, paths below root. `!` negates. */
  glob?: string;
  /** Folder names never entered (`.git`, `node_modules` unless the glob names them). */
  skipDirs: readonly string[];
  signal: AbortSignal;
}

export interface GrepMatch {
  /** Path relative to `root` (`/`-separated); for a file query, the file's name. */
  path: string;
  line: number;
  text: string;
}

export type GrepOutcome =
  | {
      kind: 'matches';
      matches: GrepMatch[];
      truncated: boolean;
      /** Lines too long to search (the JavaScript engine), per file. */
      longLines?: Array<{ path: string; lines: number }>;
    }
  | { kind: 'invalid-pattern'; message: string }
  /** The JavaScript engine's time limit: the pattern backtracks too much. */
  | { kind: 'too-slow'; message: string };

export type GrepEngine = (query: GrepQuery) => Promise<GrepOutcome>;

/** Engines stop collecting past this much matched text; the tool shows far less anyway. */
export const MAX_COLLECTED_CHARS = 8_000_000;

/**
 * The absolute path of an executable on the PATH, or undefined.
 * @example await findOnPath('rg') // '/usr/bin/rg'
 */
export async function findOnPath(command: string, envPath = process.env.PATH ?? ''): Promise<string | undefined> {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

/**
 * ripgrep's override-glob semantics, so the JavaScript engine filters exactly like `rg -g`:
 * a glob without `/` is tested against the name, one with `/` against the path below the root.
 * @example compileGrepGlob('*.ts').matches('src/a.ts') // true
 */
export function compileGrepGlob(glob: string): { negated: boolean; matches: (relative: string) => boolean } {
  const negated = glob.startsWith('!');
  let body = negated ? glob.slice(1) : glob;
  if (body.startsWith('/')) body = body.slice(1);
  const anchored = body.includes('/');
  const regex = globToRegExp(body);
  return {
    negated,
    matches: (relative) => regex.test(anchored ? relative : relative.slice(relative.lastIndexOf('/') + 1)),
  };
}
