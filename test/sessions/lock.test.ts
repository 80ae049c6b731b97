import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireSessionLock } from '../../src/sessions/lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xagent-lock-'));
  dirs.push(dir);
  return dir;
};

describe('issue 18.12: the session lock is atomic', () => {
  it('never takes over a lock that is still being written (empty and fresh)', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'lock'), '');
    expect(() => acquireSessionLock(dir, 's1')).toThrow(/in use/);
    expect(readFileSync(path.join(dir, 'lock'), 'utf8')).toBe('');
  });

  it('takes over a lock whose holder died, and leaves no temporary files behind', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'lock'), JSON.stringify({ pid: 2 ** 22 + 12345, since: 'then' }));
    const release = acquireSessionLock(dir, 's1');
    expect(JSON.parse(readFileSync(path.join(dir, 'lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(readdirSync(dir)).toEqual(['lock']);
    release();
    expect(existsSync(path.join(dir, 'lock'))).toBe(false);
  });

  it('refuses a lock held by a live process', () => {
    const dir = tempDir();
    const release = acquireSessionLock(dir, 's1');
    writeFileSync(path.join(dir, 'lock'), JSON.stringify({ pid: process.ppid }));
    expect(() => acquireSessionLock(dir, 's1')).toThrow(`in use by another xagent process (pid ${process.ppid})`);
    release();
  });

  it('eight processes racing for one lock: at most one holds it at any moment', async () => {
    const dir = tempDir();
    const journal = path.join(dir, 'journal');
    const lockModule = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/src/sessions/lock.js');
    // Each worker: 25 rounds of take the lock, note start/end in the journal, let go; "busy" when refused.
    const worker = `
      const { acquireSessionLock } = await import(${JSON.stringify(lockModule)});
      const { appendFileSync } = await import('node:fs');
      for (let round = 0; round < 25; round++) {
        let release;
        try { release = acquireSessionLock(${JSON.stringify(dir)}, 's'); } catch { continue; }
        appendFileSync(${JSON.stringify(journal)}, 'start ' + process.pid + '\\n');
        const until = Date.now() + 2; while (Date.now() < until) {}
        appendFileSync(${JSON.stringify(journal)}, 'end ' + process.pid + '\\n');
        release();
      }`;
    await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--input-type=module', '-e', worker], { stdio: 'inherit' });
            child.on('error', reject);
            child.on('exit', () => resolve());
          }),
      ),
    );
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i]).toMatch(/^start /);
      expect(lines[i + 1]).toBe(lines[i]!.replace('start', 'end'));
    }
  }, 60_000);
});
