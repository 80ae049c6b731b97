import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';

/**
 * Issue 39: in -p a refused call goes back to the model as an is_error tool_result (not permitted,
 * and how to permit it), the task goes on, and the json result lists it in permission_denials, as
 * Claude Code's -p does. --stop-on-denial keeps the old stop (test/cli/stop-exit-codes.test.ts).
 */
const api = useFakeApi();

type Block = { type: string; tool_use_id?: string; is_error?: boolean; content?: unknown };
const lastUserBlocks = (request: number): Block[] => {
  const messages = (api.fake.requests[request]!.body as { messages: Array<{ role: string; content: Block[] | string }> }).messages;
  const content = messages.at(-1)!.content;
  return Array.isArray(content) ? content : [];
};

describe('-p: a refused call is answered to the model and the task goes on', () => {
  it('denied by a rule and asked with nobody to ask: is_error results, final_answer, exit 0, both in permission_denials', async () => {
    const env = await api.start([
      {
        content: [
          { type: 'tool_use', id: 'toolu_rm', name: 'bash', input: { command: 'rm -rf build' } },
          { type: 'tool_use', id: 'toolu_w', name: 'write_file', input: { path: 'out.txt', content: 'x' } },
        ],
      },
      { text: 'I could not do it; here is why.' },
    ]);
    const run = await runCli(['-p', 'clean up', '--cwd', api.workspace, '--output-format', 'json', '--disallowedTools', 'Bash(rm:*)'], {
      env,
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ reason: 'final_answer', is_error: false, result: 'I could not do it; here is why.' });
    expect(result.permission_denials).toEqual([
      { tool_name: 'Bash', tool_use_id: 'toolu_rm', tool_input: { command: 'rm -rf build' } },
      { tool_name: 'Write', tool_use_id: 'toolu_w', tool_input: { path: 'out.txt', content: 'x' } },
    ]);
    expect(existsSync(path.join(api.workspace, 'out.txt'))).toBe(false);

    const [rm, write] = lastUserBlocks(1);
    expect(rm).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_rm', is_error: true });
    expect(JSON.stringify(rm!.content)).toMatch(/Permission to use Bash was denied.*Bash\(rm:\*\).*To permit it/);
    expect(write).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_w', is_error: true });
    expect(JSON.stringify(write!.content)).toMatch(/no TTY to ask.*Edit\(out\.txt\)/);
  });

  it('text mode names each refused call on stderr and prints the answer', async () => {
    const env = await api.start([
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'touch x' } }] },
      { text: 'done without it' },
    ]);
    const run = await runCli(['-p', 'go', '--cwd', api.workspace], { env });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('done without it');
    expect(run.stderr).toMatch(/✗ .*touch x.* — not permitted: no TTY to ask/);
  });
});
