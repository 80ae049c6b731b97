import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

/**
 * Issue 31 M4 end to end: without rg on the PATH, a grep with (a+)+$ over a 1 MB line used to
 * hang the process for good: neither --timeout nor Ctrl-C stopped it. The vitest timeout is the
 * generous bound; the exit code says which stop it was.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-grep-hang-')));
  dirs.push(root);
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(workspace);
  mkdirSync(home);
  writeFileSync(path.join(workspace, 'evil.txt'), `${'a'.repeat(1_000_000)}b\n`);
  const script = path.join(root, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({ responses: [{ content: [{ type: 'tool_use', name: 'grep', input: { pattern: '(a+)+$' } }] }, { text: 'never' }] }),
  );
  // No rg: the JavaScript engine answers. The CLI is started by node's own path, so no PATH is needed.
  const env = { XAGENT_HOME: home, PATH: path.join(root, 'no-such-bin') };
  return { workspace, script, env };
}

describe('grep (a+)+$ over a 1 MB line with the JavaScript engine (issue 31, M4)', () => {
  it('--timeout stops the task: exit 5', { timeout: 60_000 }, async () => {
    const s = setup();
    const run = await runCli(['-p', 'go', '--cwd', s.workspace, '--timeout', '2s', '--model-script', s.script], { env: s.env });
    expect(run.code).toBe(5);
  });

  it('Ctrl-C stops the task while grep runs: exit 130', { timeout: 60_000 }, async () => {
    const s = setup();
    let sent = false;
    const run = await runCli(['-p', 'go', '--cwd', s.workspace, '--output-format', 'stream-json', '--model-script', s.script], {
      env: s.env,
      onOutput: (child, output) => {
        if (!sent && output.stdout.includes('"tool_start"')) {
          sent = true;
          // Past the start event the worker is backtracking; give it a moment to be deep in it.
          setTimeout(() => child.kill('SIGINT'), 300);
        }
      },
    });
    expect(sent).toBe(true);
    expect(run.code).toBe(130);
  });
});
