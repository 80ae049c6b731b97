import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaceOwnFile } from '../../src/system/replace-own-file.js';

const folder = () => mkdtempSync(path.join(os.tmpdir(), 'xagent-replace-own-'));

describe('replaceOwnFile', () => {
  it('writes a new file, private, with no temporary file left beside it', async () => {
    const dir = folder();
    const file = path.join(dir, 'meta.json');
    await replaceOwnFile(file, '{"a":1}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['meta.json']);
  });

  it('replaces a whole file, durable or not, and many writes of one file at once each leave it whole', async () => {
    const dir = folder();
    const file = path.join(dir, 'secrets.json');
    writeFileSync(file, 'old\n');
    await replaceOwnFile(file, 'new\n', { durable: true });
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    const texts = Array.from({ length: 50 }, (_, i) => `${'x'.repeat(10_000)}${i}\n`);
    await Promise.all(texts.map((text) => replaceOwnFile(file, text)));
    expect(texts).toContain(readFileSync(file, 'utf8'));
    expect(readdirSync(dir)).toEqual(['secrets.json']);
  });

  it('rejects when the rename fails, keeping the old file and removing the temporary one', async () => {
    const dir = folder();
    const target = path.join(dir, 'meta.json');
    mkdirSync(target);
    writeFileSync(path.join(target, 'inside'), 'kept');
    await expect(replaceOwnFile(target, 'text')).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(readdirSync(dir)).toEqual(['meta.json']);
    expect(readFileSync(path.join(target, 'inside'), 'utf8')).toBe('kept');
  });

  it('rejects when the folder is gone', async () => {
    await expect(replaceOwnFile(path.join(folder(), 'missing', 'meta.json'), 'text')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('replaces a link at the target itself instead of writing through it', async () => {
    const dir = folder();
    const elsewhere = path.join(folder(), 'outside.txt');
    writeFileSync(elsewhere, 'outside');
    const file = path.join(dir, 'meta.json');
    symlinkSync(elsewhere, file);
    await replaceOwnFile(file, 'inside');
    expect(readFileSync(elsewhere, 'utf8')).toBe('outside');
    expect(readFileSync(file, 'utf8')).toBe('inside');
  });
});
