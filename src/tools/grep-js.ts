import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { compileGrepGlob, MAX_COLLECTED_CHARS, type GrepEngine, type GrepMatch } from './grep-engine.js';
import { walk } from './walk.js';

/**
 * The JavaScript grep, used when ripgrep is not on the PATH. It follows ripgrep's rules as the
 * tool runs it: hidden files searched, ignore files not read, symlinks not followed, files with a
 * NUL byte skipped as binary, `-g` glob semantics.
 * @example await grepJs({ pattern: 'TODO', ignoreCase: false, root: '/repo', file: false, skipDirs: ['.git'], signal })
 */
export const grepJs: GrepEngine = async (query) => {
  let regex: RegExp;
  try {
    regex = new RegExp(query.pattern, query.ignoreCase ? 'i' : '');
  } catch (error) {
    return { kind: 'invalid-pattern', message: (error as Error).message };
  }
  const matches: GrepMatch[] = [];
  let collected = 0;
  const search = async (absolute: string, relative: string): Promise<boolean> => {
    const buffer = await readFile(absolute).catch(() => undefined);
    if (!buffer || buffer.includes(0)) return true;
    const lines = buffer.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i++) {
      if (!regex.test(lines[i])) continue;
      matches.push({ path: relative, line: i + 1, text: lines[i] });
      collected += lines[i].length;
      if (collected > MAX_COLLECTED_CHARS) return false;
    }
    return true;
  };

  if (query.file) {
    await search(query.root, path.basename(query.root));
    return { kind: 'matches', matches, truncated: collected > MAX_COLLECTED_CHARS };
  }
  const glob = query.glob === undefined ? undefined : compileGrepGlob(query.glob);
  const enterDir = glob?.negated ? (relative: string) => !glob.matches(relative) : undefined;
  for await (const entry of walk(query.root, { skipDirs: query.skipDirs, enterDir, signal: query.signal })) {
    if (entry.kind !== 'file') continue;
    if (glob && glob.matches(entry.relative) === glob.negated) continue;
    if (!(await search(entry.absolute, entry.relative))) return { kind: 'matches', matches, truncated: true };
  }
  return { kind: 'matches', matches, truncated: false };
};
