import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../support/restate-server.js';
import { runCli } from '../support/run-cli.js';

/** The task commands' failures that need no server: each a clear message and its own exit code. */
describe('the durable-task commands without a server', () => {
  it('keeps `xagent -p wait` a task that says "wait" (regression: the new command took the word)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'xagent-p-wait-'));
    try {
      writeFileSync(path.join(dir, 'script.json'), JSON.stringify({ responses: [{ text: 'waited' }] }));
      const run = await runCli(['-p', 'wait', '--model-script', path.join(dir, 'script.json'), '--cwd', dir], {
        env: { XAGENT_HOME: dir },
      });
      expect({ code: run.code, stdout: run.stdout.trim() }).toEqual({ code: 0, stdout: 'waited' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses `xagent serve` without a backend, with exit 2', async () => {
    const run = await runCli(['serve']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('xagent serve --restate');
  });

  it('refuses a serve flag it cannot honour, with exit 2: a malformed --identity-key, an unknown --accept-from-spec', async () => {
    const key = await runCli(['serve', '--restate', '--identity-key', 'publickeyv1_0OIl']);
    expect({ code: key.code, stderr: key.stderr }).toMatchObject({ code: 2, stderr: expect.stringContaining('--identity-key') });
    const accept = await runCli(['serve', '--restate', '--accept-from-spec', 'trust,everything']);
    expect({ code: accept.code, stderr: accept.stderr }).toMatchObject({ code: 2, stderr: expect.stringContaining('"everything"') });
  });

  it('takes a short --approval-token for a mistake, with exit 2, before sending anything', async () => {
    const run = await runCli([
      'submit',
      '-p',
      'task',
      '--approval-token',
      'short',
      '--restate-url',
      `http://127.0.0.1:${await freePort()}`,
    ]);
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 2, stderr: expect.stringContaining('16 characters') });
  });

  it('checks submit flags before sending anything: a bad --max-turns or no prompt exits 2', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const bad = await runCli(['submit', '-p', 'task', '--max-turns', 'many', '--restate-url', url]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-turns');
    const empty = await runCli(['submit', '--restate-url', url]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no prompt');
  });

  it('says the server does not answer, with exit 10, and prints nothing on stdout', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    for (const args of [
      ['submit', '-p', 'task'],
      ['wait', 'some-task'],
      ['approve', 'some-task', 'toolu_1'],
      ['tasks', 'some-task'],
    ]) {
      const run = await runCli(args, { env: { RESTATE_INGRESS_URL: url } });
      expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code: 10, stdout: '' });
      expect(run.stderr).toContain(`the Restate server at ${url} does not answer`);
    }
    const listed = await runCli(['tasks'], { env: { RESTATE_ADMIN_URL: url } });
    expect(listed.code).toBe(10);
  });
});
