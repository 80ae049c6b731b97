import { describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../support/fake-anthropic.js';
import { tempDir } from '../support/engine-harness.js';
import { recordSession } from '../support/record-session.js';
import { runCli } from '../support/run-cli.js';

/** Issue 39: `-r` alone opens a picker in the terminal UI; with -p nobody can pick, so it is a usage error. */
describe('-r without a session id', () => {
  it('with -p is a usage error that says what to give instead (exit 2), one JSON object with --output-format json', async () => {
    const plain = await runCli(['-p', '-r']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('-r/--resume needs a session id with -p (xagent sessions lists them; -c continues the latest)');

    const json = await runCli(['-p', '-r', '--output-format', 'json']);
    expect(json.code).toBe(2);
    const result = JSON.parse(json.stdout) as { is_error: boolean; reason: string; message: string };
    expect(result).toMatchObject({ is_error: true, reason: 'usage_error' });
    expect(result.message).toContain('needs a session id with -p');
  });

  it('-p -r <id> still resumes that session', { timeout: 30_000 }, async () => {
    const where = { workspace: tempDir('xagent-ws-'), home: tempDir('xagent-home-') };
    const id = await recordSession(where, [{ prompt: 'remember 7', script: [{ text: 'Remembered.' }] }]);
    const fake = await startFakeAnthropic([{ text: 'It was 7.' }]);
    try {
      const run = await runCli(['-p', '-r', id, 'what was it?'], {
        cwd: where.workspace,
        env: { XAGENT_HOME: where.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.url },
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('It was 7.');
      expect(JSON.stringify(fake.requests[0]!.body)).toContain('remember 7');
      expect(fake.rejected).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});
