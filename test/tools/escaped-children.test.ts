import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { escapedDescendants, killProcessGroup } from '../../src/system/process-group.js';

/**
 * Issue 31 L2: a process group is what bash calls, hooks and MCP servers are stopped by; a child
 * that called setsid left it. Found by parent pid while its parent lives, it is stopped with it.
 */

function withMarker(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker) && !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe.skipIf(process.platform !== 'linux')('killProcessGroup and children that left the group', () => {
  it("stops a setsid child of a server still running (an MCP server's, a hook's)", { timeout: 20_000 }, async () => {
    const marker = `6161${process.pid}`;
    // The "server": stays alive as the parent of a child in a session of its own.
    const server = spawn('bash', ['-c', `setsid sleep 360.${marker} & sleep 300.${marker}`], { detached: true, stdio: 'ignore' });
    const pgid = server.pid as number;
    for (let i = 0; i < 100 && withMarker(marker).length < 2; i++) await sleep(20);
    expect(escapedDescendants(pgid)).toHaveLength(1);
    await killProcessGroup(pgid, { graceMs: 300 });
    let left = withMarker(marker);
    for (let i = 0; i < 40 && left.length > 0; i++) {
      await sleep(25);
      left = withMarker(marker);
    }
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
  });
});
