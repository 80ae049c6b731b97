import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, jsonLines, runCli } from '../support/run-cli.js';

/**
 * Issue 39: a CI script written for `claude -p --output-format json` reads `.is_error` and `.result`
 * from stdout on every exit. Before, a usage error or an untrusted workspace left stdout empty.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function workspace(files: Record<string, string> = {}): { workspace: string; home: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-json-exit-'));
  dirs.push(root);
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(home, { recursive: true });
  mkdirSync(ws, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
  }
  return { workspace: ws, home };
}

const SCRIPT = { 'script.json': JSON.stringify({ responses: [{ text: 'hello' }] }) };

/** stdout holds exactly one JSON object, which is returned. */
function theOneObject(stdout: string): Record<string, unknown> {
  const lines = jsonLines(stdout);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('-p --output-format json prints exactly one JSON object on every exit', () => {
  it('a bad flag value: is_error, reason usage_error, the message, exit 2', async () => {
    const { workspace: cwd, home } = workspace();
    const run = await runCli(['-p', 'hi', '--output-format', 'json', '--max-turns', 'lots', '--cwd', cwd], { env: { XAGENT_HOME: home } });
    expect(run.code).toBe(2);
    const result = theOneObject(run.stdout);
    expect(result).toMatchObject({ type: 'result', is_error: true, reason: 'usage_error', exit_code: 2, permission_denials: [] });
    expect(result.result).toMatch(/--max-turns "lots" must be a whole number/);
    expect(run.stderr).toMatch(/--max-turns "lots"/);
  });

  it('an unknown option (commander refuses it before any action): still one object', async () => {
    const run = await runCli(['-p', 'hi', '--output-format=json', '--no-such-flag']);
    expect(run.code).toBe(2);
    expect(theOneObject(run.stdout)).toMatchObject({ is_error: true, reason: 'usage_error' });
  });

  it('no prompt at all: usage_error', async () => {
    const { workspace: cwd, home } = workspace(SCRIPT);
    const run = await runCli(['-p', '--output-format', 'json', '--cwd', cwd, '--model-script', path.join(cwd, 'script.json')], {
      env: { XAGENT_HOME: home },
    });
    expect(run.code).toBe(2);
    expect(theOneObject(run.stdout).result).toMatch(/no prompt/);
  });

  it('an untrusted workspace: reason untrusted_project, and how to trust it', async () => {
    const { workspace: cwd, home } = workspace({
      ...SCRIPT,
      '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'] } }),
    });
    const run = await runCli(['-p', 'hi', '--output-format', 'json', '--cwd', cwd, '--model-script', path.join(cwd, 'script.json')], {
      env: { XAGENT_HOME: home, XAGENT_TRUST: undefined },
    });
    expect(run.code).toBe(2);
    const result = theOneObject(run.stdout);
    expect(result).toMatchObject({ is_error: true, reason: 'untrusted_project', subtype: 'error_during_execution' });
    expect(result.result).toMatch(/XAGENT_TRUST=1/);
    expect(result.result).toMatch(/--trust/);
  });

  it('a malformed settings file: config_error naming the file', async () => {
    const { workspace: cwd, home } = workspace({ '.xagent/settings.json': '{"permissions": {"allow": "bash"}}' });
    const run = await runCli(['-p', 'hi', '--output-format', 'json', '--cwd', cwd], { env: { XAGENT_HOME: home } });
    expect(run.code).toBe(2);
    const result = theOneObject(run.stdout);
    expect(result).toMatchObject({ is_error: true, reason: 'config_error' });
    expect(result.result).toMatch(/settings\.json/);
  });

  it('a finished task prints its own result once, and no error object beside it', async () => {
    const { workspace: cwd, home } = workspace(SCRIPT);
    const run = await runCli(['-p', 'hi', '--output-format', 'json', '--cwd', cwd, '--model-script', path.join(cwd, 'script.json')], {
      env: { XAGENT_HOME: home },
    });
    expect(run.code).toBe(0);
    expect(theOneObject(run.stdout)).toMatchObject({ is_error: false, reason: 'final_answer', result: 'hello' });
  });

  it('stream-json ends with the same result line on a usage error', async () => {
    const run = await runCli(['-p', 'hi', '--output-format', 'stream-json', '--timeout', 'never']);
    expect(run.code).toBe(2);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'result', is_error: true, reason: 'usage_error' });
  });

  it('Ctrl-C while -p waits for its prompt on stdin: user_abort, exit 130, one object', async () => {
    const { workspace: cwd, home } = workspace(SCRIPT);
    const child = spawn(
      process.execPath,
      [CLI, '-p', '--output-format', 'json', '--cwd', cwd, '--model-script', path.join(cwd, 'script.json')],
      {
        env: { PATH: process.env.PATH ?? '', HOME: home, XAGENT_HOME: home, NO_COLOR: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const closed = new Promise((resolve) => child.on('close', resolve));
    // stdin stays open: the run waits for the prompt until the signal.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    child.kill('SIGINT');
    const code = await closed;
    expect(code).toBe(130);
    expect(theOneObject(stdout)).toMatchObject({ is_error: true, reason: 'user_abort', exit_code: 130 });
  });
});
