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

describe('issue 38: an MCP server whose child calls setsid', () => {
  it("the server's escaped grandchild (setsid, its parent gone) ends with the run", async () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-setsid-mcp-')));
    dirs.push(root);
    const workspace = path.join(root, 'ws');
    mkdirSync(workspace);
    const marker = `5252${process.pid}`;
    const server = path.join(root, 'server.cjs');
    // The intermediate shell exits at once: the setsid sleep is nobody's child in the server's tree.
    writeFileSync(
      server,
      `require('node:child_process').spawnSync('sh', ['-c', 'setsid sleep 342.${marker} > /dev/null 2>&1 < /dev/null &']);
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'escaper', version: '1.0.0' } } });
  else if (msg.method === 'tools/list') send({ jsonrpc: '2.0', id: msg.id, result: { tools: [] } });
});
`,
    );
    writeFileSync(
      path.join(workspace, '.mcp.json'),
      JSON.stringify({ mcpServers: { escaper: { command: process.execPath, args: [server] } } }),
    );
    const script = path.join(root, 'script.json');
    writeFileSync(script, JSON.stringify({ responses: [{ text: 'done' }] }));
    const run = await runCli(['-p', 'go', '--cwd', workspace, '--model-script', script], { env: { XAGENT_HOME: path.join(root, 'home') } });
    expect(run.code, run.stderr).toBe(0);
    let left = processesWith(`342.${marker}`);
    for (let i = 0; i < 40 && left.length > 0; i++) {
      await sleep(50);
      left = processesWith(`342.${marker}`);
    }
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
  });
});
