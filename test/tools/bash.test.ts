import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../src/tools/builtin/bash.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { MAX_RESULT_CHARS } from '../../src/tools/truncate.js';
import { run, tempDir } from './helpers.js';

/** Alive and not a zombie: an orphan nobody reaps still answers kill(pid, 0). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return process.platform !== 'linux';
  }
}

async function readPid(file: string): Promise<number> {
  while (!existsSync(file) || (await readFile(file, 'utf8')).trim() === '') await sleep(20);
  return Number((await readFile(file, 'utf8')).trim());
}

/** Starts a background sleep and a grandchild sleep (inside a nested bash), records both pids, waits. */
const TREE = 'sleep 300 & echo $! > child.pid; bash -c "sleep 301 & echo \\$! > grandchild.pid; wait" & wait';

describe('bash', () => {
  it('runs the command in the workspace and reports output and exit code 0', async () => {
    const ws = await tempDir();
    expect(await run('bash', { command: 'pwd; echo hello' }, { workspace: ws })).toEqual({
      isError: false,
      content: `${ws}\nhello\n[exit code: 0]`,
    });
  });

  it('captures stderr together with stdout', async () => {
    const ws = await tempDir();
    const result = await run('bash', { command: 'echo out; echo err >&2' }, { workspace: ws });
    expect(result.content).toContain('out');
    expect(result.content).toContain('err');
  });

  it('returns a non-zero exit as an error result with the output', async () => {
    const ws = await tempDir();
    expect(await run('bash', { command: 'echo oops; exit 3' }, { workspace: ws })).toEqual({
      isError: true,
      content: 'oops\n[exit code: 3]',
    });
  });

  it('says when there was no output', async () => {
    const ws = await tempDir();
    expect(await run('bash', { command: 'true' }, { workspace: ws })).toEqual({ isError: false, content: '(no output)\n[exit code: 0]' });
  });

  it('keeps the beginning and the end of long output within the cap', async () => {
    const ws = await tempDir();
    const result = await run('bash', { command: 'seq 1 100000' }, { workspace: ws });
    expect(result.content.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(result.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.content).toMatch(/\[\.\.\. \d+ characters of output omitted \.\.\.\]/);
    expect(result.content.endsWith('99999\n100000\n[exit code: 0]')).toBe(true);
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const ws = await tempDir();
    const result = await run('bash', { command: TREE, timeout_ms: 500 }, { workspace: ws });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('[Timed out after 500 ms; the command and all processes it started were killed.');
    const child = await readPid(path.join(ws, 'child.pid'));
    const grandchild = await readPid(path.join(ws, 'grandchild.pid'));
    expect([isAlive(child), isAlive(grandchild)]).toEqual([false, false]);
  });

  it('on abort kills the whole process group, grandchildren included', async () => {
    const ws = await tempDir();
    const controller = new AbortController();
    const pending = run('bash', { command: TREE }, { workspace: ws, signal: controller.signal });
    const child = await readPid(path.join(ws, 'child.pid'));
    const grandchild = await readPid(path.join(ws, 'grandchild.pid'));
    expect([isAlive(child), isAlive(grandchild)]).toEqual([true, true]);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.content).toContain('[Interrupted; the command and all processes it started were killed.]');
    expect([isAlive(child), isAlive(grandchild)]).toEqual([false, false]);
  });

  it('kills with SIGKILL what ignores SIGTERM', async () => {
    const ws = await tempDir();
    const tools = builtinTools().map((t) => (t.name === 'bash' ? createBashTool({ killGraceMs: 200 }) : t));
    const command = "trap '' TERM; sleep 300 & echo $! > child.pid; wait";
    const result = await run('bash', { command, timeout_ms: 300 }, { workspace: ws, tools });
    expect(result.content).toContain('Timed out');
    expect(isAlive(await readPid(path.join(ws, 'child.pid')))).toBe(false);
  });

  it('stops background processes left running when the command exits', async () => {
    const ws = await tempDir();
    const result = await run('bash', { command: 'sleep 300 & echo $! > child.pid; echo started' }, { workspace: ws });
    expect(result).toEqual({
      isError: false,
      content: 'started\n[Background processes still running when the command exited were stopped.]\n[exit code: 0]',
    });
    expect(isAlive(await readPid(path.join(ws, 'child.pid')))).toBe(false);
  });

  it('does not run a command whose signal is already aborted', async () => {
    const ws = await tempDir();
    const controller = new AbortController();
    controller.abort();
    const result = await run('bash', { command: 'touch ran' }, { workspace: ws, signal: controller.signal });
    expect(result).toEqual({ isError: true, content: 'Interrupted before the command started; it did not run.' });
    expect(existsSync(path.join(ws, 'ran'))).toBe(false);
  });

  it('reports a command killed by a signal it did not expect', async () => {
    const ws = await tempDir();
    const result = await run('bash', { command: 'kill -SEGV $$' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: '(no output)\n[Killed by signal SIGSEGV.]' });
  });
});
