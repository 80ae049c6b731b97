import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/run-cli.js';
import { layout } from './helpers.js';
import { runsHere } from '../support/system-packages.js';

/** These tests run commands in real bubblewrap; without it (outside CI) they skip, and the run says so. */
const BWRAP = runsHere('bwrap');

/**
 * Issue 31 M7: kill -9 during a sandboxed call skips every cleanup. The placeholders made for the
 * call (an empty .mcp.json made every later run exit 2) must never stop the next run.
 */

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

describe.skipIf(!BWRAP)('kill -9 during sandboxed calls (real bwrap, issue 31, M7)', () => {
  it('20 times in one workspace: every next run starts, and the last one leaves the workspace as it was', {
    timeout: 180_000,
  }, async () => {
    const l = layout();
    const home = path.join(l.root, 'xagent-home');
    mkdirSync(home);
    const env = { PATH: process.env.PATH ?? '', HOME: l.home, NO_COLOR: '1', XAGENT_HOME: home };
    for (let i = 0; i < 20; i++) {
      const script = path.join(l.root, `script-${i}.json`);
      const call = { content: [{ type: 'tool_use', name: 'bash', input: { command: `echo $$ > started-${i}; sleep 30` } }] };
      writeFileSync(script, JSON.stringify({ responses: [call, { text: 'never' }] }));
      const child = spawn(process.execPath, [CLI, '-p', 'go', '--cwd', l.ws, '--sandbox', '--model-script', script], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const started = await until(() => existsSync(path.join(l.ws, `started-${i}`)), 20_000);
      child.kill('SIGKILL');
      await exited;
      expect(started, `run ${i} did not start: ${stderr}`).toBe(true);
    }
    // The kills left their placeholders; .mcp.json reads as "no servers" meanwhile.
    if (existsSync(path.join(l.ws, '.mcp.json'))) expect(readFileSync(path.join(l.ws, '.mcp.json'), 'utf8')).toBe('{}\n');

    const last = path.join(l.root, 'last.json');
    writeFileSync(last, JSON.stringify({ responses: [{ text: 'done' }] }));
    const run = await runCli(['-p', 'go', '--cwd', l.ws, '--model-script', last], { env });
    expect(run.code).toBe(0);
    const left = readdirSync(l.ws).filter((name) => !name.startsWith('started-'));
    expect(left).toEqual(['victim.txt']);
    expect(readdirSync(path.join(home, 'sandbox'))).toEqual([]);
  });
});
