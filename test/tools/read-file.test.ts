import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RESULT_CHARS } from '../../src/tools/truncate.js';
import { mkfifo, run, tempDir, writeTree } from './helpers.js';

const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

describe('read_file', () => {
  it('returns the file with numbered lines like cat -n', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': 'alpha\n\tbeta\r\ngamma' });
    const result = await run('read_file', { path: 'a.txt' }, { workspace: ws });
    expect(result).toEqual({ isError: false, content: '     1\talpha\n     2\t\tbeta\n     3\tgamma' });
  });

  it('reads the lines selected by offset and limit and says how to read on', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': lines(10) });
    const result = await run('read_file', { path: 'a.txt', offset: 3, limit: 2 }, { workspace: ws });
    expect(result.isError).toBe(false);
    expect(result.content).toBe(
      '     3\tline 3\n     4\tline 4\n[Showing lines 3-4 of 10, stopped by the line limit (2). To read more, call read_file with offset=5.]',
    );
  });

  it('stops at the size cap with a notice giving the next offset', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'big.txt': Array.from({ length: 1000 }, (_, i) => `${i + 1} ${'x'.repeat(100)}`).join('\n') });
    const result = await run('read_file', { path: 'big.txt' }, { workspace: ws });
    expect(result.isError).toBe(false);
    expect(result.content.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    const next = /To read more, call read_file with offset=(\d+)\./.exec(result.content);
    expect(next).not.toBeNull();
    const shownLast =
      result.content
        .split('\n')
        .filter((l) => /^\s+\d+\t/.test(l))
        .pop() ?? '';
    expect(Number(next?.[1])).toBe(Number(shownLast.trim().split('\t')[0]) + 1);
    expect(result.content).toContain('of 1000, stopped by the 30000-character limit');
  });

  it('cuts very long lines and says so', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'min.js': 'y'.repeat(5000) });
    const result = await run('read_file', { path: 'min.js' }, { workspace: ws });
    expect(result.content).toContain('[line cut at 2000 of 5000 characters]');
    expect(result.content).toContain('1 long line(s) were cut');
  });

  it('reports an empty file as empty, not as an error', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'empty.txt': '' });
    expect(await run('read_file', { path: 'empty.txt' }, { workspace: ws })).toEqual({
      isError: false,
      content: 'empty.txt is empty (0 lines).',
    });
  });

  it('refuses an offset past the end, giving the line count', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': lines(3) });
    const result = await run('read_file', { path: 'a.txt', offset: 9 }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: 'offset 9 is past the end of a.txt, which has 3 lines.' });
  });

  it('refuses a binary file', async () => {
    const ws = await tempDir();
    await writeFile(path.join(ws, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const result = await run('read_file', { path: 'logo.png' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: expect.stringContaining('looks like a binary file') });
  });

  it('tells the model to use list_dir for a directory', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'src/a.ts': '' });
    const result = await run('read_file', { path: 'src' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: 'src is a directory, use list_dir.' });
  });

  it('tells the model to use glob for a missing file', async () => {
    const ws = await tempDir();
    const result = await run('read_file', { path: 'nope/missing.ts' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: 'nope/missing.ts: not found; use glob to find it.' });
  });

  it('refuses something that is not a regular file, without blocking on it', async () => {
    const ws = await tempDir();
    mkfifo(path.join(ws, 'pipe'));
    const result = await run('read_file', { path: 'pipe' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: expect.stringContaining('is not a regular file') });
  });
});
