import { runsHere } from '../support/system-packages.js';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { createGrepTool } from '../../src/tools/builtin/grep.js';
import { findOnPath } from '../../src/tools/grep-engine.js';
import type { Tool } from '../../src/tools/types.js';
import { run, tempDir, writeTree } from './helpers.js';

const rgPath = await findOnPath('rg');
const rgRuns = runsHere('rg');

function toolsWith(engine: 'js' | 'ripgrep'): Tool[] {
  return builtinTools().map((t) => (t.name === 'grep' ? createGrepTool({ engine }) : t));
}

async function makeTree(): Promise<string> {
  const ws = await tempDir();
  await writeTree(ws, {
    'src/a.ts': 'const TODO = 1;\nfoo\n// todo: lower case\n',
    'src/lib/b.ts': 'TODO two\nTODO again\n',
    'src/lib/c.js': 'TODO js\r\nwindows\r\n',
    '.hidden/h.ts': 'TODO hidden',
    'node_modules/dep/index.js': 'TODO dep\n',
    '.git/config': 'TODO git\n',
    'bin.dat': Buffer.from('TODO\0binary\n'),
    'README.md': 'no match here\nTODO: readme',
    'dir with space/x y.txt': 'TODO spaces\n',
    'weird:name.txt': 'TODO colon: yes\n',
    'z/deep/er/TODO.txt': 'MyTODOs and TODO\n',
  });
  await symlink(path.join(ws, 'src/a.ts'), path.join(ws, 'link.ts'));
  return ws;
}

const queries: Record<string, unknown>[] = [
  { pattern: 'TODO' },
  { pattern: 'todo', ignore_case: true },
  { pattern: '\\bTODO\\b' },
  { pattern: 'TODO', glob: '*.ts' },
  { pattern: 'TODO', glob: '*.{js,md}' },
  { pattern: 'TODO', glob: 'src/**/*.js' },
  { pattern: 'TODO', glob: '!*.ts' },
  { pattern: 'TODO', glob: 'node_modules/**' },
  { pattern: 'TODO', path: 'src' },
  { pattern: 'TODO', path: 'src', glob: 'lib/*.ts' },
  { pattern: 'TODO', path: 'src/lib/b.ts' },
  { pattern: '^(foo|windows)' },
  { pattern: 'nothing_matches_this' },
];

describe('grep (JavaScript engine)', () => {
  let ws: string;
  beforeEach(async () => {
    ws = await makeTree();
  });

  it('prints path:line:text sorted by path then line, skipping .git, node_modules, binaries and symlinks', async () => {
    const result = await run('grep', { pattern: 'TODO' }, { workspace: ws, tools: toolsWith('js') });
    expect(result).toEqual({
      isError: false,
      content: [
        '.hidden/h.ts:1:TODO hidden',
        'README.md:2:TODO: readme',
        'dir with space/x y.txt:1:TODO spaces',
        'src/a.ts:1:const TODO = 1;',
        'src/lib/b.ts:1:TODO two',
        'src/lib/b.ts:2:TODO again',
        'src/lib/c.js:1:TODO js',
        'weird:name.txt:1:TODO colon: yes',
        'z/deep/er/TODO.txt:1:MyTODOs and TODO',
      ].join('\n'),
    });
  });

  it('matches case-insensitively with ignore_case', async () => {
    const result = await run('grep', { pattern: 'todo: lower', ignore_case: true }, { workspace: ws, tools: toolsWith('js') });
    expect(result.content).toBe('src/a.ts:3:// todo: lower case');
  });

  it('limits the search to files matching glob, by name at any depth or by path', async () => {
    const byName = await run('grep', { pattern: 'TODO', glob: '*.js' }, { workspace: ws, tools: toolsWith('js') });
    expect(byName.content).toBe('src/lib/c.js:1:TODO js');
    const byPath = await run('grep', { pattern: 'TODO', path: 'src', glob: 'lib/*.ts' }, { workspace: ws, tools: toolsWith('js') });
    expect(byPath.content).toBe('src/lib/b.ts:1:TODO two\nsrc/lib/b.ts:2:TODO again');
  });

  it('searches one file when path is a file', async () => {
    const result = await run('grep', { pattern: 'again', path: 'src/lib/b.ts' }, { workspace: ws, tools: toolsWith('js') });
    expect(result.content).toBe('src/lib/b.ts:2:TODO again');
  });

  it('reports no match as an error the model can act on', async () => {
    const result = await run('grep', { pattern: 'nothing_matches_this' }, { workspace: ws, tools: toolsWith('js') });
    expect(result).toEqual({ isError: true, content: expect.stringContaining('No matches for "nothing_matches_this" in the workspace') });
  });

  it('reports an invalid regular expression', async () => {
    const result = await run('grep', { pattern: '(unclosed' }, { workspace: ws, tools: toolsWith('js') });
    expect(result).toEqual({ isError: true, content: expect.stringContaining('Invalid regular expression "(unclosed"') });
  });

  it('reports a missing path, a binary file and an invalid glob', async () => {
    const tools = toolsWith('js');
    expect((await run('grep', { pattern: 'x', path: 'nope' }, { workspace: ws, tools })).content).toBe(
      'nope: not found; use glob to find it.',
    );
    expect((await run('grep', { pattern: 'x', path: 'bin.dat' }, { workspace: ws, tools })).content).toContain('is a binary file');
    expect((await run('grep', { pattern: 'x', glob: '*.{ts' }, { workspace: ws, tools })).content).toContain('Invalid glob');
  });

  it('caps a flood of matches with a notice', async () => {
    const big = await tempDir();
    await writeFile(path.join(big, 'log.txt'), 'ERROR something went wrong here\n'.repeat(5000));
    const result = await run('grep', { pattern: 'ERROR' }, { workspace: big, tools: toolsWith('js') });
    expect(result.content.length).toBeLessThanOrEqual(30_000);
    expect(result.content).toMatch(/\[Showing \d+ of 5000 matching lines in 1 files\. Narrow the search/);
  });
});

describe('grep: ripgrep and JavaScript give the same results', () => {
  let ws: string;
  beforeEach(async () => {
    ws = await makeTree();
  });

  it.skipIf(!rgRuns)('on every query of the parity set (skipped only when rg is not on the PATH)', async () => {
    for (const query of queries) {
      const viaRg = await run('grep', query, { workspace: ws, tools: toolsWith('ripgrep') });
      const viaJs = await run('grep', query, { workspace: ws, tools: toolsWith('js') });
      expect(viaRg, JSON.stringify(query)).toEqual(viaJs);
    }
  });

  it.skipIf(!rgRuns)('both refuse an invalid regular expression', async () => {
    const viaRg = await run('grep', { pattern: '(unclosed' }, { workspace: ws, tools: toolsWith('ripgrep') });
    const viaJs = await run('grep', { pattern: '(unclosed' }, { workspace: ws, tools: toolsWith('js') });
    expect([viaRg.isError, viaJs.isError]).toEqual([true, true]);
    expect(viaRg.content).toContain('Invalid regular expression');
  });

  it('finds rg on a PATH that has it and not on one that lacks it', async () => {
    expect(await findOnPath('rg', '')).toBeUndefined();
    if (rgPath) expect(await findOnPath('rg', `/nonexistent${path.delimiter}${path.dirname(rgPath)}`)).toBe(rgPath);
  });
});
