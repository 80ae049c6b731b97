import { open, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../machines/types.js';
import { mkfifo, run, tempDir, writeTree } from './helpers.js';

/** Regressions from issue 18: files and paths that crashed a tool or hung the process. */

/** The result, or 'hung' if the tool has not answered within a generous bound. */
async function within(promise: Promise<ToolResult>, ms = 10_000): Promise<ToolResult | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('issue 18.5: read_file on a file that is one enormous line', () => {
  it('answers with the start of the line and its size instead of crashing', async () => {
    const ws = await tempDir();
    // 600 MB, sparse: 8000 text bytes up front (so it is not taken for binary), then no newline at all.
    const handle = await open(path.join(ws, 'huge.log'), 'w');
    await handle.write('a'.repeat(8000));
    await handle.truncate(600 * 1024 * 1024);
    await handle.close();
    const result = await run('read_file', { path: 'huge.log' }, { workspace: ws });
    expect(result.isError).toBe(false);
    expect(result.content).toContain(`[line cut at 2000 of ${600 * 1024 * 1024} bytes]`);
    expect(result.content.length).toBeLessThan(5000);
  }, 60_000);
});

describe('issue 18.6: edit_file on a file that is not valid UTF-8', () => {
  it('refuses and leaves every byte as it was', async () => {
    const ws = await tempDir();
    const original = Buffer.from('caf\xe9\nfoo\n', 'latin1');
    await writeTree(ws, { 'latin1.txt': original });
    const result = await run('edit_file', { path: 'latin1.txt', old_string: 'foo', new_string: 'bar' }, { workspace: ws });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('not valid UTF-8');
    expect(await readFile(path.join(ws, 'latin1.txt'))).toEqual(original);
  });

  it('still edits valid UTF-8, a byte-order mark included', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'u.txt': '\ufeffcafé\nfoo\n' });
    const result = await run('edit_file', { path: 'u.txt', old_string: 'foo', new_string: 'bar' }, { workspace: ws });
    expect(result.isError).toBe(false);
    expect(await readFile(path.join(ws, 'u.txt'), 'utf8')).toBe('\ufeffcafé\nbar\n');
  });
});

describe('issue 18.7: tools refuse a FIFO instead of hanging', () => {
  it.each([
    ['grep', { pattern: 'x', path: 'pipe' }],
    ['edit_file', { path: 'pipe', old_string: 'a', new_string: 'b' }],
    ['read_file', { path: 'pipe' }],
  ])('%s on a FIFO is an error result', async (tool, input) => {
    const ws = await tempDir();
    mkfifo(path.join(ws, 'pipe'));
    const result = await within(run(tool, input, { workspace: ws }));
    expect(result).not.toBe('hung');
    expect(result).toMatchObject({ isError: true, content: expect.stringContaining('not a regular file') });
  });

  it('read_file refuses a symlink to a device', async () => {
    const ws = await tempDir();
    await symlink('/dev/zero', path.join(ws, 'zero'));
    const result = await within(run('read_file', { path: 'zero' }, { workspace: ws }));
    expect(result).toMatchObject({ isError: true });
  });
});

describe('issue 18.9: path errors the model can fix are tool results', () => {
  it.each(['read_file', 'write_file', 'edit_file', 'list_dir', 'grep', 'glob'])('%s through a symlink loop', async (tool) => {
    const ws = await tempDir();
    await symlink('b', path.join(ws, 'a'));
    await symlink('a', path.join(ws, 'b'));
    const input =
      tool === 'glob'
        ? { pattern: '*', path: 'a/x' }
        : tool === 'grep'
          ? { pattern: 'x', path: 'a/x' }
          : { path: 'a/x', content: 'x', old_string: 'a', new_string: 'b' };
    const only = Object.fromEntries(Object.entries(input).filter(([key]) => TOOL_KEYS[tool]!.includes(key)));
    const result = await run(tool, only, { workspace: ws });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/loop of symbolic links|too many levels of symbolic links/);
  });

  it.each(['read_file', 'write_file', 'list_dir'])('%s with a path over the file-name limit', async (tool) => {
    const ws = await tempDir();
    const input = { path: `${'d'.repeat(300)}/x`, content: 'x' };
    const only = Object.fromEntries(Object.entries(input).filter(([key]) => TOOL_KEYS[tool]!.includes(key)));
    const result = await run(tool, only, { workspace: ws });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('too long');
  });
});

const TOOL_KEYS: Record<string, string[]> = {
  read_file: ['path'],
  write_file: ['path', 'content'],
  edit_file: ['path', 'old_string', 'new_string'],
  list_dir: ['path'],
  grep: ['pattern', 'path'],
  glob: ['pattern', 'path'],
};
