import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { globToRegExp } from '../../src/tools/glob-pattern.js';
import { run, tempDir, writeTree } from './helpers.js';

describe('glob patterns', () => {
  const cases: [string, string, boolean][] = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['*.ts', '.hidden.ts', true],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'src/deep/a.ts', true],
    ['src/**', 'src/a/b', true],
    ['src/**', 'srcx/a', false],
    ['src/**/a.ts', 'src/a.ts', true],
    ['src/**/a.ts', 'src/x/y/a.ts', true],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['*.{ts,tsx}', 'a.js', false],
    ['{src,test}/**/*.{ts,js}', 'test/x/y.js', true],
    ['[abc].txt', 'b.txt', true],
    ['[!abc].txt', 'b.txt', false],
    ['[!abc].txt', 'd.txt', true],
    ['[a-c]*', 'cat', true],
    ['[a-c]*', 'dog', false],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['a.b', 'axb', false],
    ['(x)+', '(x)+', true],
  ];
  it.each(cases)('%s on %s gives %s', (glob, candidate, expected) => {
    expect(globToRegExp(glob).test(candidate)).toBe(expected);
  });

  it('refuses an unclosed brace or bracket', () => {
    expect(() => globToRegExp('*.{ts')).toThrow('unclosed "{"');
    expect(() => globToRegExp('[ab')).toThrow('unclosed "["');
  });
});

describe('glob tool', () => {
  const tree = {
    'README.md': '',
    'src/a.ts': '',
    'src/lib/b.ts': '',
    'src/lib/c.js': '',
    '.github/ci.ts': '',
    'node_modules/dep/index.ts': '',
    '.git/hooks/x.ts': '',
  };

  it('finds files at any depth with **, sorted, skipping .git and node_modules', async () => {
    const ws = await tempDir();
    await writeTree(ws, tree);
    expect(await run('glob', { pattern: '**/*.ts' }, { workspace: ws })).toEqual({
      isError: false,
      content: '.github/ci.ts\nsrc/a.ts\nsrc/lib/b.ts',
    });
  });

  it('searches node_modules when the pattern names it', async () => {
    const ws = await tempDir();
    await writeTree(ws, tree);
    expect((await run('glob', { pattern: 'node_modules/**/*.ts' }, { workspace: ws })).content).toBe('node_modules/dep/index.ts');
    expect((await run('glob', { pattern: '.git/**' }, { workspace: ws })).content).toBe('.git/hooks/x.ts');
  });

  it('matches relative to path and returns workspace-relative paths', async () => {
    const ws = await tempDir();
    await writeTree(ws, tree);
    expect((await run('glob', { pattern: '*.ts', path: 'src' }, { workspace: ws })).content).toBe('src/a.ts');
    expect((await run('glob', { pattern: 'lib/*.{ts,js}', path: 'src' }, { workspace: ws })).content).toBe('src/lib/b.ts\nsrc/lib/c.js');
  });

  it('lists symlinks by name without descending into them', async () => {
    const ws = await tempDir();
    const outside = await tempDir('xagent-outside-');
    await writeTree(outside, { 'secret.ts': '' });
    await symlink(outside, path.join(ws, 'out'));
    await writeTree(ws, { 'a.ts': '' });
    expect((await run('glob', { pattern: '**/*.ts' }, { workspace: ws })).content).toBe('a.ts');
  });

  it('reports no match as an error with a hint for subfolders', async () => {
    const ws = await tempDir();
    await writeTree(ws, tree);
    const result = await run('glob', { pattern: '*.ts' }, { workspace: ws });
    expect(result).toEqual({
      isError: true,
      content:
        'No files match "*.ts" in the workspace root. The pattern only matches directly in the workspace root; try "**/*.ts" to search subfolders.',
    });
  });

  it('refuses an invalid pattern, an absolute pattern and a pattern escaping the workspace', async () => {
    const ws = await tempDir();
    expect((await run('glob', { pattern: '*.{ts' }, { workspace: ws })).content).toContain('Invalid glob pattern: unclosed "{"');
    expect((await run('glob', { pattern: '/etc/*' }, { workspace: ws })).content).toContain('is absolute');
    expect((await run('glob', { pattern: '../../etc/*' }, { workspace: ws })).content).toContain('outside the workspace');
  });

  it('reports a path that is a file', async () => {
    const ws = await tempDir();
    await writeTree(ws, tree);
    expect(await run('glob', { pattern: '*', path: 'README.md' }, { workspace: ws })).toEqual({
      isError: true,
      content: 'README.md is a file, not a folder; give a folder as `path`.',
    });
  });

  it('caps the number of results with a notice', async () => {
    const ws = await tempDir();
    await writeTree(ws, Object.fromEntries(Array.from({ length: 1010 }, (_, i) => [`d/f${i}.txt`, ''])));
    const result = await run('glob', { pattern: 'd/*.txt' }, { workspace: ws });
    expect(result.content).toContain('[Showing the first 1000 of 1010 matches.');
  });
});
