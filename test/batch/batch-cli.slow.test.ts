import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { CLI, runCli, TRUSTED_ENV } from '../support/run-cli.js';
import { resultLines, taskOfRequest, twoRounds, writeTasks } from './batch-fixtures.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Runs the CLI and kills it (SIGKILL) as soon as `out` holds `lines` results; resolves with how it ended. */
function runUntilKilled(args: string[], env: Record<string, string>, out: string, lines: number): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...TRUSTED_ENV, ...env },
    stdio: 'ignore',
  });
  const poll = setInterval(() => {
    if (resultLines(out).length >= lines) child.kill('SIGKILL');
  }, 5);
  return new Promise((resolve) =>
    child.on('close', (_code, signal) => {
      clearInterval(poll);
      resolve(signal);
    }),
  );
}

describe('xagent batch', () => {
  it('runs 200 tasks 50 at a time; killed halfway and run again, it finishes the rest without running a finished task again', {
    timeout: 120_000,
  }, async () => {
    fake = await startFakeAnthropic([], { respond: twoRounds(40) });
    const dir = tempDir();
    const tasks = writeTasks(dir, 200);
    const out = path.join(dir, 'results.jsonl');
    const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, XAGENT_HOME: path.join(dir, 'home') };
    const args = ['batch', tasks, '--concurrency', '50', '--out', out, '--cwd', dir];

    expect(await runUntilKilled(args, env, out, 100)).toBe('SIGKILL');
    const finished = new Set(resultLines(out).map((r) => String(r.id)));
    expect(finished.size).toBeGreaterThanOrEqual(100);
    expect(finished.size).toBeLessThan(200);
    const requestsBefore = fake.requests.length;

    const second = await runCli(args, { env });
    expect(second.stderr).toMatch(/skipped/);
    expect(second.code).toBe(0);

    const results = resultLines(out);
    expect(results).toHaveLength(200);
    expect(new Set(results.map((r) => r.id))).toEqual(new Set(Array.from({ length: 200 }, (_, i) => `t${i + 1}`)));
    for (const result of results) {
      expect(result).toMatchObject({ type: 'result', reason: 'final_answer', is_error: false, result: `done ${String(result.id)}` });
      expect(typeof result.session_id).toBe('string');
    }
    // The second run sent no request for a task the first one finished.
    const rerun = fake.requests.slice(requestsBefore).map((r) => taskOfRequest(r.body));
    expect(rerun.filter((id) => id !== null && finished.has(id))).toEqual([]);
    expect(new Set(rerun).size).toBe(200 - finished.size + (rerun.includes(null) ? 1 : 0));
    expect(fake.rejected).toEqual([]);
  });
});
