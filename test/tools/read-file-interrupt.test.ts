import { mkdtempSync, realpathSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../src/tools/builtin/read-file.js';

/**
 * Issue 31 L5: read_file counts every line of the file, synchronously; on a file of gigabytes the
 * abort (Ctrl-C, --timeout) waited for the whole read. It now gets a turn every 16 MiB.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('read_file of a 1 GiB file', () => {
  it('is stopped by an abort that comes while it reads, instead of reading to the end', { timeout: 30_000 }, async () => {
    const ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-read-big-')));
    dirs.push(ws);
    const file = path.join(ws, 'big.log');
    writeFileSync(file, 'first line\n'.repeat(1000));
    truncateSync(file, 1 << 30); // sparse: a gigabyte to read, no disk used
    const controller = new AbortController();
    const reading = readFileTool.execute({ input: { path: 'big.log', limit: 1 }, workspace: ws, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('interrupted')), 50);
    await expect(reading).rejects.toThrow('interrupted');
  });
});
