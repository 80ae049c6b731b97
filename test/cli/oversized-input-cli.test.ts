import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

/**
 * Issue 31 I1: one tool input of a million characters went into the transcript and was sent back
 * with every later request, past the context window: the session could never go on. Now it is
 * not kept: the model hears why, and the session continues.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a tool input of a million characters (issue 31, I1)', () => {
  it('is not kept or run; the model is told why, and the session can be continued', { timeout: 60_000 }, async () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-oversized-')));
    dirs.push(root);
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home');
    mkdirSync(workspace);
    const first = path.join(root, 'first.json');
    const huge = { content: [{ type: 'tool_use', name: 'write_file', input: { path: 'big.txt', content: 'x'.repeat(1_000_000) } }] };
    writeFileSync(first, JSON.stringify({ responses: [huge, { text: 'done' }] }));
    const run = await runCli(['-p', 'go', '--cwd', workspace, '--permission-mode', 'acceptEdits', '--model-script', first], {
      env: { XAGENT_HOME: home },
    });
    expect(run.code).toBe(0);
    expect(existsSync(path.join(workspace, 'big.txt'))).toBe(false);
    const [id] = readdirSync(path.join(home, 'sessions'));
    const transcript = path.join(home, 'sessions', id!, 'transcript.jsonl');
    expect(statSync(transcript).size).toBeLessThan(100_000);
    expect(readFileSync(transcript, 'utf8')).toContain('more than the 256000 kept');

    const second = path.join(root, 'second.json');
    writeFileSync(second, JSON.stringify({ responses: [{ text: 'still here' }] }));
    const next = await runCli(['-p', 'go on', '--continue', '--cwd', workspace, '--model-script', second], { env: { XAGENT_HOME: home } });
    expect(next.code).toBe(0);
    expect(next.stdout).toContain('still here');
  });
});
