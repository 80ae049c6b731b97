import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir, writeTree } from './helpers.js';

describe('list_dir', () => {
  it('lists the workspace root sorted, folders with a trailing slash', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'b.txt': '', 'a/x.txt': '', '.hidden': '', 'C.md': '' });
    expect(await run('list_dir', {}, { workspace: ws })).toEqual({ isError: false, content: '.hidden\nC.md\na/\nb.txt' });
  });

  it('lists a subfolder, not recursively', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'src/a.ts': '', 'src/lib/b.ts': '' });
    expect(await run('list_dir', { path: 'src' }, { workspace: ws })).toEqual({ isError: false, content: 'a.ts\nlib/' });
  });

  it('shows a symlink to a folder as a folder', async () => {
    const ws = await tempDir();
    await mkdir(path.join(ws, 'real'));
    await symlink(path.join(ws, 'real'), path.join(ws, 'alias'));
    expect((await run('list_dir', {}, { workspace: ws })).content).toBe('alias/\nreal/');
  });

  it('says when a folder is empty', async () => {
    const ws = await tempDir();
    await mkdir(path.join(ws, 'empty'));
    expect(await run('list_dir', { path: 'empty' }, { workspace: ws })).toEqual({ isError: false, content: 'empty is empty.' });
  });

  it('points to read_file when given a file', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': '' });
    expect(await run('list_dir', { path: 'a.txt' }, { workspace: ws })).toEqual({
      isError: true,
      content: 'a.txt is a file, not a folder; use read_file to read it.',
    });
  });

  it('reports a missing folder', async () => {
    const ws = await tempDir();
    expect(await run('list_dir', { path: 'nope' }, { workspace: ws })).toEqual({
      isError: true,
      content: 'nope: not found; use glob to find it.',
    });
  });

  it('caps a huge folder with a notice', async () => {
    const ws = await tempDir();
    await writeTree(ws, Object.fromEntries(Array.from({ length: 1005 }, (_, i) => [`f${String(i).padStart(4, '0')}`, ''])));
    const result = await run('list_dir', {}, { workspace: ws });
    expect(result.content.split('\n')).toHaveLength(1001);
    expect(result.content).toContain('[Showing 1000 of 1005 entries.');
  });
});
