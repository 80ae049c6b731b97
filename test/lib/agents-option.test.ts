import { describe, expect, it } from 'vitest';
import { query, UsageError } from '../../src/lib/index.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { collect, toolResultsIn } from './lib-support.js';

const api = useFakeApi();

const systemOf = (request: { body: unknown } | undefined) => JSON.stringify((request?.body as { system?: unknown }).system ?? '');
const toolsOf = (request: { body: unknown } | undefined) =>
  ((request?.body as { tools?: Array<{ name: string }> }).tools ?? []).map((t) => t.name);

describe('query() with the agents option', () => {
  it("starts an agent given as an object: its prompt, its tools, its answer as the task call's result", async () => {
    const env = await api.start([
      {
        content: [
          {
            type: 'tool_use',
            id: 'toolu_task',
            name: 'task',
            input: { description: 'scout', prompt: 'find the config', subagent_type: 'scout' },
          },
        ],
      },
      { text: 'It is in config.json.' },
      { text: 'The scout says: config.json.' },
    ]);
    const { events, result } = await collect(
      query('where is the config?', {
        cwd: api.workspace,
        env,
        stderr: null,
        agents: {
          scout: { description: 'Finds files', prompt: 'You are scout. Search, then answer with paths.', tools: ['Read', 'Grep'] },
        },
      }),
    );
    expect(result.reason).toBe('final_answer');
    const child = api.fake.requests[1];
    expect(systemOf(child)).toContain('You are scout.');
    expect(toolsOf(child)).toEqual(['read_file', 'grep']);
    expect(toolsOf(api.fake.requests[0])).toContain('task');
    expect(toolResultsIn(api.fake.requests[2])).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_task', content: 'It is in config.json.', is_error: false },
    ]);
    expect(events.filter((e) => e.agent === 'main/task-1').length).toBeGreaterThan(0);
  });

  it('refuses an agent without a prompt, naming it, before any request', async () => {
    const env = await api.start([{ text: 'never asked' }]);
    const run = collect(query('x', { cwd: api.workspace, env, stderr: null, agents: { scout: { description: 'Finds files' } as never } }));
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(/agents\.scout needs a description and a prompt/);
    expect(api.fake.requests).toHaveLength(0);
  });
});
