import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { groupAlive, waitUntilGone } from '../../src/system/process-group.js';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/src/system');

/**
 * A parent that starts `sleep 30` in a group of its own and tracks it, as the bash tool does,
 * with or without the watchdog armed; it prints the group's id. The test then kills the parent
 * with SIGKILL: no exit handler of its own runs.
 */
async function parentWithGroup(armed: boolean): Promise<{ pgid: number; kill9: () => Promise<void> }> {
  const script = `
    const { spawn } = await import('node:child_process');
    const { trackGroup } = await import(${JSON.stringify(pathToFileURL(path.join(dist, 'process-group.js')).href)});
    const { armGroupWatchdog } = await import(${JSON.stringify(pathToFileURL(path.join(dist, 'group-watchdog.js')).href)});
    if (${armed}) armGroupWatchdog();
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    child.unref();
    trackGroup(child.pid);
    console.log(child.pid);
    setInterval(() => {}, 1000);
  `;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const closed = new Promise<void>((resolve) => parent.once('close', () => resolve()));
  const pgid = await new Promise<number>((resolve, reject) => {
    parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    parent.once('exit', (code) => reject(new Error(`the parent exited ${code} before starting its group`)));
  });
  return {
    pgid,
    kill9: async () => {
      parent.kill('SIGKILL');
      await closed;
    },
  };
}

describe.skipIf(process.platform === 'win32')('the group watchdog (src/system/group-watchdog.ts)', () => {
  it('kills the process groups its parent tracked when the parent is killed with SIGKILL', async () => {
    const { pgid, kill9 } = await parentWithGroup(true);
    expect(groupAlive(pgid)).toBe(true);
    await kill9();
    expect(await waitUntilGone(pgid, 3000)).toBe(true);
  });

  it('without it, a tracked group outlives a parent killed with SIGKILL (what the watchdog is for)', async () => {
    const { pgid, kill9 } = await parentWithGroup(false);
    await kill9();
    try {
      expect(await waitUntilGone(pgid, 500)).toBe(false);
    } finally {
      process.kill(-pgid, 'SIGKILL');
    }
  });
});
