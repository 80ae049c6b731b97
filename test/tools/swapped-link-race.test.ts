import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/system/atomic-write.js';
import { fsErrorResult } from '../../src/tools/fs-errors.js';
import { openRegularFile } from '../../src/tools/open-regular.js';

/**
 * Issue 31 L1: the file tools resolve a path (checked inside the workspace), then use it. A process
 * that swaps a folder for a symlink in between used to redirect the write (or the read) outside.
 * Here the swap is made exactly in that gap: the tools get the path as resolved before it.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function world() {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-race-')));
  dirs.push(root);
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'outside secret\n');
  writeFileSync(path.join(ws, 'src', 'secret.txt'), 'inside\n');
  /** The swap: src becomes a link to the outside folder, after the tool resolved ws/src/... */
  const swap = () => {
    renameSync(path.join(ws, 'src'), path.join(ws, 'src-old'));
    symlinkSync(outside, path.join(ws, 'src'));
  };
  return { ws, outside, swap };
}

describe('a folder swapped for a symlink after the path was checked (issue 31, L1)', () => {
  it('write: nothing is written outside, and the tool says the path changed', async () => {
    const w = world();
    const resolved = path.join(w.ws, 'src', 'a.ts'); // what resolveInWorkspace returned
    w.swap();
    const error = await writeFileAtomic(resolved, 'export const planted = 1;\n').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'EXAGENTMOVED' });
    expect(readdirSync(w.outside)).toEqual(['secret.txt']);
    expect(fsErrorResult(error, 'src/a.ts')).toEqual({ isError: true, content: expect.stringContaining('the path changed') });
  });

  it('read: the outside file is not opened', () => {
    const w = world();
    const resolved = path.join(w.ws, 'src', 'secret.txt');
    w.swap();
    let caught: unknown;
    try {
      const opened = openRegularFile(resolved, 'src/secret.txt');
      if ('fd' in opened) closeSync(opened.fd);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'EXAGENTMOVED' });
  });

  it('read: a file swapped for a symlink itself is refused (O_NOFOLLOW)', () => {
    const w = world();
    const resolved = path.join(w.ws, 'src', 'secret.txt');
    rmSync(resolved);
    symlinkSync(path.join(w.outside, 'secret.txt'), resolved);
    expect(() => openRegularFile(resolved, 'src/secret.txt')).toThrow(expect.objectContaining({ code: 'ELOOP' }));
  });

  it('without a swap, both work as before', async () => {
    const w = world();
    await writeFileAtomic(path.join(w.ws, 'src', 'b.ts'), 'ok\n');
    expect(existsSync(path.join(w.ws, 'src', 'b.ts'))).toBe(true);
    const opened = openRegularFile(path.join(w.ws, 'src', 'secret.txt'), 'src/secret.txt');
    expect('fd' in opened).toBe(true);
    if ('fd' in opened) closeSync(opened.fd);
  });
});
