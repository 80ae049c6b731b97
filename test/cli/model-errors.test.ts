import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';

const api = useFakeApi();

/** A port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('model errors say what to do', () => {
  it('an unknown model: not found, and how to choose one', async () => {
    const env = await api.start([{ error: { type: 'not_found_error', message: 'model: claude-nope' } }]);
    const run = await runCli(['-p', 'hello', '--model', 'claude-nope', '--cwd', api.workspace], { env });
    expect(run.code).toBe(8);
    expect(run.stderr).toContain('Model not found (404): model: claude-nope. Choose another with --model <id> or ANTHROPIC_MODEL.');
    expect(api.fake.requests).toHaveLength(1);
  });

  it('a connection error names ANTHROPIC_BASE_URL when it is set', { timeout: 30_000 }, async () => {
    await api.start([]);
    const url = `http://127.0.0.1:${await closedPort()}`;
    const run = await runCli(['-p', 'hello', '--cwd', api.workspace], {
      env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: url, XAGENT_HOME: api.home },
    });
    expect(run.code).toBe(8);
    expect(run.stderr).toContain(`Could not get a response from the Anthropic API at ${url} (set by ANTHROPIC_BASE_URL)`);
  });
});
