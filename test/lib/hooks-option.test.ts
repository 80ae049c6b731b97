import { describe, expect, it } from 'vitest';
import { query, UsageError, type HookInput } from '../../src/lib/index.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { collect, toolResultsIn } from './lib-support.js';

const api = useFakeApi();

describe('query() with the hooks option', () => {
  it('runs a function PreToolUse hook that blocks bash: the command does not run and the model reads the reason', async () => {
    const env = await api.start([
      { content: [{ type: 'tool_use', id: 'toolu_sh', name: 'bash', input: { command: 'touch ran.txt' } }] },
      { text: 'Blocked, fine.' },
    ]);
    const seen: HookInput[] = [];
    const { events, result } = await collect(
      query('make a file', {
        cwd: api.workspace,
        env,
        stderr: null,
        allow: ['bash'],
        hooks: {
          PreToolUse: [
            {
              matcher: 'bash',
              hooks: [
                {
                  type: 'function',
                  name: 'no-shell',
                  callback: (input) => {
                    seen.push(input);
                    return { decision: 'block', reason: 'no shell in this program' };
                  },
                },
              ],
            },
          ],
        },
      }),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'bash', tool_input: { command: 'touch ran.txt' } });
    const [block] = toolResultsIn(api.fake.requests[1]);
    expect(block).toMatchObject({ tool_use_id: 'toolu_sh', is_error: true });
    expect(block!.content).toContain('no shell in this program');
    expect(events.some((e) => e.type === 'hook')).toBe(true);
    expect(result.reason).toBe('final_answer');
    const { existsSync } = await import('node:fs');
    expect(existsSync(`${api.workspace}/ran.txt`)).toBe(false);
  });

  it('refuses an unknown hook event before any request', async () => {
    const env = await api.start([{ text: 'never asked' }]);
    const run = collect(query('hi', { cwd: api.workspace, env, stderr: null, hooks: { BeforeEverything: [] } as never }));
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(/the hooks option: unknown hook event "BeforeEverything"/);
    expect(api.fake.requests).toHaveLength(0);
  });
});
