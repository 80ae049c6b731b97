import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ProcessTransport } from '../../src/mcp/stdio-transport.js';
import { tempDir } from '../support/engine-harness.js';
import { groupAlive, processesWith } from './support.js';

/** The stdio transport's promise: closing ends the whole tree, grandchildren included. */
describe('ProcessTransport', () => {
  it('close() stops the server, its child and its grandchild', async () => {
    const marker = tempDir('xagent-mcp-tree-');
    // server (node) -> child (sh) -> grandchild (node): each carries the marker in its command line.
    const grandchild = `${process.execPath} -e "setInterval(() => {}, 1000)" ${marker} & wait; : ${marker}`;
    const script = `require('node:child_process').spawn('sh', ['-c', ${JSON.stringify(grandchild)}], { stdio: 'ignore' }); setInterval(() => {}, 1000);`;
    const transport = new ProcessTransport({ command: process.execPath, args: ['-e', script, marker], env: {}, cwd: marker });
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    for (let i = 0; i < 200 && processesWith(marker).length < 3; i++) await sleep(20);
    const pids = processesWith(marker);
    expect(pids).toHaveLength(3);
    await transport.close();
    expect(processesWith(marker)).toEqual([]);
    for (const pid of pids) expect(groupAlive(pid)).toBe(false);
    expect(closed).toBe(true);
  });

  it('keeps the last stderr lines for the message when the server exits, and never the rest', async () => {
    const transport = new ProcessTransport({
      command: 'sh',
      args: ['-c', 'for i in $(seq 1 50); do echo "line $i" >&2; done; exit 4'],
      env: {},
      cwd: '/',
    });
    const closed = new Promise<void>((resolve) => {
      transport.onclose = resolve;
    });
    await transport.start();
    await closed;
    expect(transport.problem()).toMatch(/^it exited with code 4; its last stderr: line 41 \| .* \| line 50$/);
  });

  it('a command that does not exist rejects start() with a clear reason', async () => {
    const transport = new ProcessTransport({ command: 'xagent-no-such-binary', args: [], env: {}, cwd: '/' });
    await expect(transport.start()).rejects.toThrow('cannot run "xagent-no-such-binary": spawn xagent-no-such-binary ENOENT');
  });
});
