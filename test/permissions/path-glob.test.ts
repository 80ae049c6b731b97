import { describe, expect, it } from 'vitest';
import { globToRegExp, matchPathPattern, resolveToolPath } from '../../src/permissions/path-glob.js';

const ws = '/home/u/project';

describe('path globs', () => {
  it.each([
    ['src/**', 'src/a.ts', true],
    ['src/**', 'src/deep/er/a.ts', true],
    ['src/**', 'src', true],
    ['src/**', 'srcx/a.ts', false],
    ['src/**', 'lib/src/a.ts', false],
    ['src/*', 'src/a.ts', true],
    ['src/*', 'src/deep/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['**/*.ts', 'x/y/a.tsx', false],
    ['src/**/test/*.ts', 'src/test/a.ts', true],
    ['src/**/test/*.ts', 'src/a/b/test/a.ts', true],
    ['*.md', 'README.md', true],
    ['*.md', 'docs/README.md', false],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['*', '.env', true],
    ['**', '', true],
    ['**', 'a/b/c', true],
    ['a.ts', 'a.ts', true],
    ['a.ts', 'aXts', false],
    ['a\\*.ts', 'a*.ts', true],
    ['a\\*.ts', 'ab.ts', false],
  ])('%s matches %j: %s', (glob, file, expected) => {
    expect(globToRegExp(glob).test(file)).toBe(expected);
  });

  it.each([
    ['src/**', './src/a.ts', true],
    ['./src/**', 'src/a.ts', true],
    ['src/', 'src/a/b.ts', true],
    ['src/**', `${ws}/src/a.ts`, true],
    ['src/**', 'lib/../src/a.ts', true],
    ['src/**', '../project/src/a.ts', true],
    ['**', '../other/a.ts', false],
    ['**', '/etc/passwd', false],
    ['.', '.', true],
    ['.', 'src', false],
    [`${ws}/src/**`, 'src/a.ts', true],
    ['/etc/**', '/etc/passwd', true],
    ['/etc/**', 'etc/passwd', false],
  ])('rule pattern %j matches tool path %j in the workspace: %s', (pattern, input, expected) => {
    expect(matchPathPattern(pattern, input, ws)).toBe(expected);
  });

  it('resolves tool paths relative to the workspace and flags the ones outside', () => {
    expect(resolveToolPath('./a/../b.ts', ws)).toEqual({ inside: true, relative: 'b.ts', absolute: `${ws}/b.ts` });
    expect(resolveToolPath('.', ws)).toMatchObject({ inside: true, relative: '' });
    expect(resolveToolPath('../x', ws)).toEqual({ inside: false, absolute: '/home/u/x' });
    expect(resolveToolPath('..foo', ws)).toMatchObject({ inside: true, relative: '..foo' });
  });
});
