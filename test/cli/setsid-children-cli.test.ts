import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

/** Issue 31 L2: a child that leaves its process group (setsid) ends with the run, hooks' children included. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker) && !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) {
        found.push(Number(name));
      }
    } catch {
      // gone
    }
  }
  return found;
}

describe('children that call setsid (issue 31, L2)', () => {
  it("a hook's setsid child and a bash call's do not outlive the run", async () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-setsid-')));
    dirs.push(root);
    const workspace = path.join(root, 'ws');
    mkdirSync(path.join(workspace, '.xagent'), { recursive: true });
    const marker = `5151${process.pid}`;
    writeFileSync(
      path.join(workspace, '.xagent', 'settings.json'),
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `setsid sleep 340.${marker} > /dev/null 2>&1 < /dev/null &` }] }] },
      }),
    );
    const script = path.join(root, 'script.json');
    const call = {
      content: [{ type: 'tool_use', name: 'bash', input: { command: `setsid sleep 341.${marker} > /dev/null 2>&1 < /dev/null &` } }],
    };
    writeFileSync(script, JSON.stringify({ responses: [call, { text: 'done' }] }));
    const run = await runCli(['-p', 'go', '--cwd', workspace, '--allow', 'bash', '--model-script', script], {
      env: { XAGENT_HOME: path.join(root, 'home') },
    });
    expect(run.code).toBe(0);
    let left = processesWith(marker);
    for (let i = 0; i < 40 && left.length > 0; i++) {
      await sleep(50);
      left = processesWith(marker);
    }
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
  });
});
