import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../src/tools/builtin/edit-file.js';
import { writeFileTool } from '../../src/tools/builtin/write-file.js';

/** Issue 31 I2: a lone surrogate used to be replaced by U+FFFD without a word; now nothing is written and the model is told. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const ws = () => {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-surrogate-')));
  dirs.push(dir);
  return dir;
};
const signal = new AbortController().signal;

describe('an unpaired surrogate in what a file tool would write (issue 31, I2)', () => {
  it('write_file refuses it, names where it is, and writes nothing', async () => {
    const w = ws();
    const result = await writeFileTool.execute({ input: { path: 'a.txt', content: 'ok \ud83d then' }, workspace: w, signal });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('unpaired UTF-16 surrogate (at character 3)');
    expect(existsSync(path.join(w, 'a.txt'))).toBe(false);
  });

  it('edit_file refuses it in new_string and leaves the file as it was', async () => {
    const w = ws();
    writeFileSync(path.join(w, 'a.txt'), 'hello\n');
    const result = await editFileTool.execute({
      input: { path: 'a.txt', old_string: 'hello', new_string: '\udc00x' },
      workspace: w,
      signal,
    });
    expect(result.isError).toBe(true);
    expect(readFileSync(path.join(w, 'a.txt'), 'utf8')).toBe('hello\n');
  });

  it('a whole pair (an emoji) is written as UTF-8', async () => {
    const w = ws();
    const result = await writeFileTool.execute({ input: { path: 'a.txt', content: 'smile \ud83d\ude00' }, workspace: w, signal });
    expect(result.isError).toBe(false);
    expect(readFileSync(path.join(w, 'a.txt'), 'utf8')).toBe('smile 😀');
  });
});
