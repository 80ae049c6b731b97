import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/system/atomic-write.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { createEditFileTool } from '../../src/tools/builtin/edit-file.js';
import { run, tempDir, writeTree } from './helpers.js';

const source = 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n';

describe('edit_file', () => {
  it('replaces one exact occurrence', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'x.ts': source });
    const result = await run('edit_file', { path: 'x.ts', old_string: 'b = 2', new_string: 'b = 3' }, { workspace: ws });
    expect(result).toEqual({ isError: false, content: 'Edited x.ts: replaced 1 occurrence (line 2).' });
    expect(await readFile(path.join(ws, 'x.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
  });

  it('refuses several occurrences without replace_all, naming the lines', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'x.ts': source });
    const result = await run('edit_file', { path: 'x.ts', old_string: '= 1;', new_string: '= 9;' }, { workspace: ws });
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      'old_string occurs 2 times in x.ts (lines 1, 3). Add surrounding lines to old_string so it matches exactly one place, or set replace_all to true.',
    );
    expect(await readFile(path.join(ws, 'x.ts'), 'utf8')).toBe(source);
  });

  it('replaces every occurrence with replace_all', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'x.ts': source });
    const result = await run('edit_file', { path: 'x.ts', old_string: '= 1;', new_string: '= 9;', replace_all: true }, { workspace: ws });
    expect(result).toEqual({ isError: false, content: 'Edited x.ts: replaced 2 occurrences (lines 1, 3).' });
    expect(await readFile(path.join(ws, 'x.ts'), 'utf8')).toBe('const a = 9;\nconst b = 2;\nconst a2 = 9;\n');
  });

  it('keeps $ sequences in new_string literal', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'x.ts': 'price\n' });
    await run('edit_file', { path: 'x.ts', old_string: 'price', new_string: "$& $1 $' cost" }, { workspace: ws });
    expect(await readFile(path.join(ws, 'x.ts'), 'utf8')).toBe("$& $1 $' cost\n");
  });

  it('reports no match with a hint to read the file first', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'x.ts': source });
    const result = await run('edit_file', { path: 'x.ts', old_string: 'const c', new_string: 'let c' }, { workspace: ws });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('old_string was not found in x.ts');
    expect(result.content).toContain('Use read_file');
  });

  it('refuses identical old and new strings', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'x.ts': source });
    const result = await run('edit_file', { path: 'x.ts', old_string: 'b', new_string: 'b' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: 'old_string and new_string are the same, so there is nothing to change.' });
  });

  it('refuses an empty old_string and points to write_file', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'x.ts': source });
    const result = await run('edit_file', { path: 'x.ts', old_string: '', new_string: 'x' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: expect.stringContaining('use write_file') });
  });

  it('reports a missing file with a hint to use glob', async () => {
    const ws = await tempDir();
    const result = await run('edit_file', { path: 'gone.ts', old_string: 'a', new_string: 'b' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: 'gone.ts: not found; use glob to find it.' });
  });

  it('refuses a directory and a binary file', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'src/a.ts': 'a' });
    await writeFile(path.join(ws, 'bin'), Buffer.from([0x61, 0x00, 0x62]));
    expect(await run('edit_file', { path: 'src', old_string: 'a', new_string: 'b' }, { workspace: ws })).toEqual({
      isError: true,
      content: 'src is a directory, use list_dir.',
    });
    const binary = await run('edit_file', { path: 'bin', old_string: 'a', new_string: 'b' }, { workspace: ws });
    expect(binary).toEqual({ isError: true, content: expect.stringContaining('binary') });
  });

  it('leaves the original file intact and no temporary file when the write fails half way', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'x.ts': source });
    let tempWritten = '';
    // The temporary file is complete when the rename fails: the worst moment to fail.
    const failingRename = async (from: string) => {
      tempWritten = await readFile(from, 'utf8');
      throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
    };
    const tools = builtinTools().map((t) =>
      t.name === 'edit_file' ? createEditFileTool({ write: (p, c) => writeFileAtomic(p, c, { rename: failingRename }) }) : t,
    );
    const call = run('edit_file', { path: 'x.ts', old_string: 'b = 2', new_string: 'b = 3' }, { workspace: ws, tools });
    await expect(call).rejects.toThrow('EIO');
    expect(tempWritten).toContain('b = 3');
    expect(await readFile(path.join(ws, 'x.ts'), 'utf8')).toBe(source);
    expect(await readdir(ws)).toEqual(['x.ts']);
  });

  it('turns a permission error while writing into a result the model can read', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'x.ts': source });
    const denied = async () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    const tools = builtinTools().map((t) => (t.name === 'edit_file' ? createEditFileTool({ write: denied }) : t));
    const result = await run('edit_file', { path: 'x.ts', old_string: 'b = 2', new_string: 'b = 3' }, { workspace: ws, tools });
    expect(result).toEqual({ isError: true, content: 'x.ts: permission denied by the operating system.' });
    expect(await readFile(path.join(ws, 'x.ts'), 'utf8')).toBe(source);
  });
});
