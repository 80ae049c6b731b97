import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_COLLECTED_CHARS } from '../../src/tools/grep-engine.js';
import { grepJs, runWorker } from '../../src/tools/grep-js.js';

/**
 * Issue 31 M4 and L4: the JavaScript grep (no rg on the PATH) must not hang the process on a
 * backtracking pattern, and must read big files in pieces. Timing belongs in bench; here only a
 * generous bound tells "stopped" from "hung".
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-grep-bt-')));
  dirs.push(ws);
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(ws, name), content);
  return ws;
}

const EVIL_LINE = `${'a'.repeat(1_000_000)}b\n`;

describe('the JavaScript grep on (a+)+$ over a 1 MB line', () => {
  it('stops when the task is interrupted, while the pattern is still backtracking', { timeout: 20_000 }, async () => {
    const ws = workspace({ 'evil.txt': EVIL_LINE });
    const controller = new AbortController();
    const search = grepJs({ pattern: '(a+)+$', ignoreCase: false, root: ws, file: false, skipDirs: [], signal: controller.signal });
    // The main thread stays free while the worker backtracks: this timer fires at all only because of that.
    const fired = await new Promise<boolean>((resolve) =>
      setTimeout(() => {
        controller.abort(new Error('interrupted'));
        resolve(true);
      }, 300),
    );
    expect(fired).toBe(true);
    await expect(search).rejects.toThrow('interrupted');
  });

  it('gives up at its time limit with an answer the model can act on', { timeout: 20_000 }, async () => {
    const ws = workspace({ 'evil.txt': EVIL_LINE });
    const outcome = await runWorker(
      {
        pattern: '(a+)+$',
        ignoreCase: false,
        files: [{ absolute: path.join(ws, 'evil.txt'), relative: 'evil.txt' }],
        maxCollectedChars: MAX_COLLECTED_CHARS,
        maxLineChars: 64 << 20,
      },
      new AbortController().signal,
      300,
    );
    expect(outcome.kind).toBe('too-slow');
    expect(outcome.kind === 'too-slow' && outcome.message).toMatch(/nested repetition/);
  });
});

describe('the JavaScript grep reads files in pieces (issue 31, L4)', () => {
  it('finds matches on lines that cross its 1 MiB read chunks, with the right line numbers', async () => {
    const filler = `${'x'.repeat(999)}\n`; // 1,000 bytes a line: line 1,049 straddles the first chunk's end
    const content = `${filler.repeat(1048)}${'y'.repeat(500)}NEEDLE${'y'.repeat(500)}\n${filler.repeat(5000)}NEEDLE at the end`;
    const ws = workspace({ 'big.txt': content });
    const outcome = await grepJs({
      pattern: 'NEEDLE',
      ignoreCase: false,
      root: ws,
      file: false,
      skipDirs: [],
      signal: new AbortController().signal,
    });
    expect(outcome.kind === 'matches' && outcome.matches.map((m) => m.line)).toEqual([1049, 6050]);
  });

  it('says which lines were too long to search instead of a false "no matches"', async () => {
    const ws = workspace({ 'long.txt': `short NEEDLE\n${'z'.repeat(5000)} NEEDLE\nNEEDLE again\n` });
    const outcome = await runWorker(
      {
        pattern: 'NEEDLE',
        ignoreCase: false,
        files: [{ absolute: path.join(ws, 'long.txt'), relative: 'long.txt' }],
        maxCollectedChars: MAX_COLLECTED_CHARS,
        maxLineChars: 4096,
      },
      new AbortController().signal,
      10_000,
    );
    expect(outcome).toMatchObject({ kind: 'matches', longLines: [{ path: 'long.txt', lines: 1 }] });
    expect(outcome.kind === 'matches' && outcome.matches.map((m) => m.line)).toEqual([1, 3]);
  });
});
