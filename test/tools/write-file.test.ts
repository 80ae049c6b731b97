import { chmod, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/system/atomic-write.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { createWriteFileTool } from '../../src/tools/builtin/write-file.js';
import { run, tempDir, writeTree } from './helpers.js';

describe('write_file', () => {
  it('creates a file and its missing parent folders, reporting the bytes written', async () => {
    const ws = await tempDir();
    const result = await run('write_file', { path: 'a/b/c.txt', content: 'héllo\n' }, { workspace: ws });
    expect(result).toEqual({ isError: false, content: 'Created a/b/c.txt (7 bytes written).' });
    expect(await readFile(path.join(ws, 'a/b/c.txt'), 'utf8')).toBe('héllo\n');
  });

  it('overwrites an existing file, keeps its mode and leaves no temporary file behind', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'run.sh': 'old' });
    await chmod(path.join(ws, 'run.sh'), 0o755);
    const result = await run('write_file', { path: 'run.sh', content: 'echo new\n' }, { workspace: ws });
    expect(result).toEqual({ isError: false, content: 'Overwrote run.sh (9 bytes written).' });
    expect(await readFile(path.join(ws, 'run.sh'), 'utf8')).toBe('echo new\n');
    expect((await stat(path.join(ws, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(await readdir(ws)).toEqual(['run.sh']);
  });

  it('writes an empty file', async () => {
    const ws = await tempDir();
    expect(await run('write_file', { path: 'empty', content: '' }, { workspace: ws })).toEqual({
      isError: false,
      content: 'Created empty (0 bytes written).',
    });
  });

  it('refuses to write over a directory', async () => {
    const ws = await tempDir();
    await mkdir(path.join(ws, 'src'));
    const result = await run('write_file', { path: 'src', content: 'x' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: 'src is a directory; give a file path inside it.' });
  });

  it('reports a parent path that is a file', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': 'x' });
    const result = await run('write_file', { path: 'a.txt/b.txt', content: 'x' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: 'a.txt/b.txt: a part of this path is a file, not a directory.' });
    expect(await readFile(path.join(ws, 'a.txt'), 'utf8')).toBe('x');
  });

  it('leaves the old content intact and no temporary file when the rename fails', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': 'original' });
    const failingRename = async () => {
      throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
    };
    const tools = builtinTools().map((t) =>
      t.name === 'write_file' ? createWriteFileTool({ write: (p, c) => writeFileAtomic(p, c, { rename: failingRename }) }) : t,
    );
    await expect(run('write_file', { path: 'a.txt', content: 'new' }, { workspace: ws, tools })).rejects.toThrow('EIO');
    expect(await readFile(path.join(ws, 'a.txt'), 'utf8')).toBe('original');
    expect(await readdir(ws)).toEqual(['a.txt']);
  });
});
