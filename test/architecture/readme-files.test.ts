import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A README that names a file which moved or never existed sends its reader looking for nothing.
 * Every file name in backticks in a README of this repository must exist: next to the README,
 * from the repository's root, or (a bare name) somewhere under the README's folder.
 */

const root = path.resolve(import.meta.dirname, '../..');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'test-artifacts', 'fixtures']);
const REPO_DIRS = ['src/', 'machines/', 'test/', 'bench/', 'scripts/', 'inspector/', 'docs/', 'lint/', 'examples/', '.ci/'];
const CODE_FILE = /\.(ts|tsx|cts|mts|js|mjs|cjs)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

/** The names a README gives in backticks that claim to be files of this repository. */
function namedFiles(markdown: string): string[] {
  const names = new Set<string>();
  for (const [, raw] of markdown.matchAll(/`([^`\s]+)`/g)) {
    const name = raw.replace(/[.,:;)]+$/, '').replace(/^\.\//, '');
    if (/^\.[^/]*$/.test(name) || /[*{}<>$]/.test(name) || name.startsWith('dist/') || name.includes('://')) continue;
    const repoPath = REPO_DIRS.some((dir) => name.startsWith(dir));
    const bareCode = !name.includes('/') && CODE_FILE.test(name);
    if (repoPath || bareCode) names.add(name);
  }
  return [...names];
}

function exists(name: string, readmeDir: string, filesUnder: (dir: string) => string[]): boolean {
  const trimmed = name.replace(/\/$/, '');
  if (existsSync(path.join(readmeDir, trimmed)) || existsSync(path.join(root, trimmed))) return true;
  if (name.includes('/')) return false;
  return filesUnder(readmeDir).some((file) => path.basename(file) === name);
}

describe('README file names', () => {
  const files = walk(root);
  const readmes = files.filter((file) => path.basename(file) === 'README.md');
  const filesUnder = (dir: string) => files.filter((file) => file.startsWith(dir + path.sep));

  it('finds the READMEs and the names in them', () => {
    expect(readmes.length).toBeGreaterThan(20);
    expect(namedFiles('see `query.ts`, `src/engine/`, `*.test.ts` and `settings.json`')).toEqual(['query.ts', 'src/engine/']);
  });

  it('fails on a README that names a missing file', () => {
    const srcEngine = path.join(root, 'src/engine');
    expect(exists('query.ts', srcEngine, filesUnder)).toBe(true);
    expect(exists('no-such-file.ts', srcEngine, filesUnder)).toBe(false);
    expect(exists('src/engine/no-such-file.ts', srcEngine, filesUnder)).toBe(false);
  });

  it('every file a README names exists', () => {
    const missing: string[] = [];
    for (const readme of readmes) {
      const dir = path.dirname(readme);
      for (const name of namedFiles(readFileSync(readme, 'utf8'))) {
        if (!exists(name, dir, filesUnder)) missing.push(`${path.relative(root, readme)}: \`${name}\``);
      }
    }
    expect(missing).toEqual([]);
  });
});
