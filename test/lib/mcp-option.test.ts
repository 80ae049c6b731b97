import { describe, expect, it } from 'vitest';
import { query, UsageError } from '../../src/lib/index.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { EVERYTHING } from '../mcp/support.js';
import { collect, toolResultsIn } from './lib-support.js';

const api = useFakeApi();

describe('query() with the mcpServers option', () => {
  it('starts the server, offers its tools as mcp__<name>__<tool> and runs a call allowed by a rule', async () => {
    const env = await api.start([
      { content: [{ type: 'tool_use', id: 'toolu_echo', name: 'mcp__everything__echo', input: { message: 'from the library' } }] },
      { text: 'It echoed.' },
    ]);
    const { result } = await collect(
      query('echo something', {
        cwd: api.workspace,
        env,
        stderr: null,
        allow: ['mcp__everything'],
        mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
      }),
    );
    const offered = (api.fake.requests[0]!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(offered).toContain('mcp__everything__echo');
    const [block] = toolResultsIn(api.fake.requests[1]);
    expect(block).toMatchObject({ tool_use_id: 'toolu_echo', is_error: false });
    expect(block!.content).toContain('from the library');
    expect(result.reason).toBe('final_answer');
  });

  it('refuses a malformed server before any request, naming the option', async () => {
    const env = await api.start([{ text: 'never asked' }]);
    const run = collect(query('hi', { cwd: api.workspace, env, stderr: null, mcpServers: { bad: { url: 42 } as never } }));
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(/the mcpServers option: mcpServers\.bad/);
    expect(api.fake.requests).toHaveLength(0);
  });
});
