import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { query, tool, UsageError } from '../../src/lib/index.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { collect, toolResultsIn } from './lib-support.js';

const api = useFakeApi();

const wordCount = (seen: Array<{ input: unknown; cwd: string }> = []) =>
  tool<{ path: string }>({
    name: 'word_count',
    description: 'Count the words of a file in the workspace.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    readOnly: true,
    execute: ({ path: file }, { cwd }) => {
      seen.push({ input: { path: file }, cwd });
      return `${file}: 3 words`;
    },
  });

const callWordCount = (input: unknown = { path: 'notes.txt' }) => ({
  content: [{ type: 'tool_use', id: 'toolu_wc', name: 'word_count', input }],
});

describe('query() with a custom tool', () => {
  it('runs the tool in process and gives its result to the model, the result event last', async () => {
    const env = await api.start([callWordCount(), { text: 'notes.txt has 3 words.' }]);
    const seen: Array<{ input: unknown; cwd: string }> = [];
    const { events, result } = await collect(query('count the words', { cwd: api.workspace, env, tools: [wordCount(seen)], stderr: null }));

    expect(seen).toEqual([{ input: { path: 'notes.txt' }, cwd: api.workspace }]);
    expect(toolResultsIn(api.fake.requests[1])).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_wc', content: 'notes.txt: 3 words', is_error: false },
    ]);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { content: 'notes.txt: 3 words', is_error: false } });
    expect(result).toMatchObject({ type: 'result', reason: 'final_answer', text: 'notes.txt has 3 words.', tool_calls: 1 });
    // Recorded like a CLI run, under XAGENT_HOME.
    expect(result.trace_path?.startsWith(api.home)).toBe(true);
    expect(existsSync(result.trace_path!)).toBe(true);
    // The model was offered the custom tool next to the built-ins.
    const tools = (api.fake.requests[0]!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['read_file', 'bash', 'word_count']));
  });

  it('validates the input against inputSchema (ajv) before execute, and the model reads what was wrong', async () => {
    const env = await api.start([callWordCount({ file: 'notes.txt' }), { text: 'I used the wrong field.' }]);
    const seen: Array<{ input: unknown; cwd: string }> = [];
    const { result } = await collect(query('count', { cwd: api.workspace, env, tools: [wordCount(seen)], stderr: null }));
    expect(seen).toEqual([]);
    const [block] = toolResultsIn(api.fake.requests[1]);
    expect(block).toMatchObject({ is_error: true });
    expect(block!.content).toContain('input.path: required property is missing');
    expect(result.reason).toBe('final_answer');
  });

  it('turns an error thrown by execute into an is_error result and the task goes on', async () => {
    const env = await api.start([callWordCount(), { text: 'The tool failed; sorry.' }]);
    const broken = tool({
      ...{ name: 'word_count', description: 'Count words.', readOnly: true },
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    const { result } = await collect(query('count', { cwd: api.workspace, env, tools: [broken], stderr: null }));
    expect(toolResultsIn(api.fake.requests[1])).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_wc', content: 'word_count failed: disk on fire', is_error: true },
    ]);
    expect(result).toMatchObject({ reason: 'final_answer', is_error: false, text: 'The tool failed; sorry.' });
  });

  it('asks canUseTool where the CLI would ask the person; a denial reaches the model and the task goes on', async () => {
    const env = await api.start([callWordCount(), { text: 'Not allowed, then.' }]);
    const asked: Array<{ name: string; input: unknown; aborted: boolean }> = [];
    const seen: Array<{ input: unknown; cwd: string }> = [];
    const writer = tool({
      ...{ name: 'word_count', description: 'Count words.' },
      inputSchema: { type: 'object' },
      execute: (input, { cwd }) => {
        seen.push({ input, cwd });
        return 'ran';
      },
    });
    const { result } = await collect(
      query('count', {
        cwd: api.workspace,
        env,
        stderr: null,
        tools: [writer],
        canUseTool: (name, input, { signal }) => {
          asked.push({ name, input, aborted: signal.aborted });
          return { behavior: 'deny', message: 'word_count is off limits today' };
        },
      }),
    );
    expect(asked).toEqual([{ name: 'word_count', input: { path: 'notes.txt' }, aborted: false }]);
    expect(seen).toEqual([]);
    expect(toolResultsIn(api.fake.requests[1])).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_wc', content: 'word_count is off limits today', is_error: true },
    ]);
    expect(result).toMatchObject({ reason: 'final_answer', text: 'Not allowed, then.' });
  });

  it('runs a call canUseTool allows, and stops with permission_denied when there is no canUseTool to ask', async () => {
    const env = await api.start([callWordCount(), { text: 'done' }]);
    const asking = tool({ name: 'word_count', description: 'Count words.', inputSchema: { type: 'object' }, execute: () => 'counted' });
    const allowed = await collect(
      query('count', { cwd: api.workspace, env, stderr: null, tools: [asking], canUseTool: () => ({ behavior: 'allow' }) }),
    );
    expect(toolResultsIn(api.fake.requests[1])[0]).toMatchObject({ content: 'counted' });
    expect(allowed.result.reason).toBe('final_answer');

    const env2 = await api.start([callWordCount()]);
    const { result } = await collect(query('count', { cwd: api.workspace, env: env2, stderr: null, tools: [asking] }));
    expect(result).toMatchObject({ reason: 'permission_denied', decision: { behavior: 'deny' } });
    expect(result.decision?.decidedBy).toContain('no canUseTool to ask');
  });

  it('stops with user_abort when the signal is aborted, and the running tool sees the abort', async () => {
    const env = await api.start([callWordCount()]);
    const controller = new AbortController();
    let toolSawAbort = false;
    const slow = tool({
      name: 'word_count',
      description: 'Count words slowly.',
      inputSchema: { type: 'object' },
      readOnly: true,
      execute: (_input, { signal }) =>
        new Promise<string>((resolve) => {
          signal.addEventListener('abort', () => {
            toolSawAbort = true;
            resolve('stopped');
          });
          controller.abort();
        }),
    });
    const { result } = await collect(query('count', { cwd: api.workspace, env, stderr: null, tools: [slow], signal: controller.signal }));
    expect(result).toMatchObject({ reason: 'user_abort', is_error: true });
    expect(toolSawAbort).toBe(true);
    expect(api.fake.requests).toHaveLength(1);
  });
});

describe('query() refuses before any request', () => {
  it('a custom tool named like a built-in', async () => {
    const env = await api.start([{ text: 'never' }]);
    const clash = tool({ name: 'read_file', description: 'Mine.', inputSchema: { type: 'object' }, execute: () => 'x' });
    const events = query('hi', { cwd: api.workspace, env, tools: [clash], stderr: null });
    await expect(events.next()).rejects.toThrow(/tool "read_file" clashes with the built-in tool/);
    await expect(events.next()).resolves.toMatchObject({ done: true });
    expect(api.fake.requests).toEqual([]);
  });

  it('a missing ANTHROPIC_API_KEY, with a UsageError that says what to do', async () => {
    const env = await api.start([{ text: 'never' }]);
    const events = query('hi', { cwd: api.workspace, env: { ...env, ANTHROPIC_API_KEY: '' }, stderr: null });
    const error = await events.next().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('ANTHROPIC_API_KEY is not set');
    expect(api.fake.requests).toEqual([]);
  });

  it('bad options, named as options', async () => {
    const env = await api.start([]);
    const first = (options: Parameters<typeof query>[1]) => query('hi', { cwd: api.workspace, env, stderr: null, ...options }).next();
    await expect(first({ maxTurns: 0 })).rejects.toThrow('maxTurns must be a whole number of at least 1');
    await expect(first({ permissionMode: 'yolo' as 'default' })).rejects.toThrow('permissionMode "yolo" must be one of');
    await expect(first({ maxThinkingTokens: 100 })).rejects.toThrow('maxThinkingTokens must be 0 (off) or at least 1024');
    await expect(first({ inspect: 70_000 })).rejects.toThrow('inspect must be true or a port');
    await expect(first({ mcpServerz: {} } as never)).rejects.toThrow('unknown option "mcpServerz"');
    await expect(first({ cwd: path.join(api.workspace, 'nope') })).rejects.toThrow(/^cwd .* does not exist$/);
    expect(() => tool({ name: 'has space', description: 'x', inputSchema: { type: 'object' }, execute: () => '' })).toThrow(UsageError);
    expect(api.fake.requests).toEqual([]);
  });
});

describe('query() settings, sessions and the inspector', () => {
  it('reads the settings files by default and ignores them with readSettings: false', async () => {
    writeFileSync(path.join(api.home, 'settings.json'), JSON.stringify({ permissions: { deny: ['word_count'] } }));
    const env = await api.start([callWordCount(), callWordCount(), { text: 'ran' }]);
    const denied = await collect(query('count', { cwd: api.workspace, env, stderr: null, tools: [wordCount()] }));
    expect(denied.result).toMatchObject({ reason: 'permission_denied' });
    expect(denied.result.decision?.decidedBy).toContain('settings.json');
    const ignored = await collect(query('count', { cwd: api.workspace, env, stderr: null, tools: [wordCount()], readSettings: false }));
    expect(ignored.result).toMatchObject({ tool_calls: 1 });
  });

  it('continues a recorded session with session.resume', async () => {
    const env = await api.start([{ text: 'first answer' }, { text: 'second answer' }]);
    const first = await collect(query('one', { cwd: api.workspace, env, stderr: null }));
    const second = await collect(query('two', { cwd: api.workspace, env, stderr: null, session: { resume: first.result.session_id } }));
    expect(second.result.session_id).toBe(first.result.session_id);
    const messages = (api.fake.requests[1]!.body as { messages: Array<{ role: string }> }).messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('serves the live inspector with inspect: true and gives its URL to onInspectorUrl', async () => {
    const env = await api.start([callWordCount(), { text: 'done' }]);
    let url = '';
    let status = 0;
    const counting = tool({
      name: 'word_count',
      description: 'Count words.',
      inputSchema: { type: 'object' },
      readOnly: true,
      // While the task runs: the page must answer.
      execute: async () => {
        status = (await fetch(url)).status;
        return '3 words';
      },
    });
    const { result } = await collect(
      query('count', { cwd: api.workspace, env, stderr: null, tools: [counting], inspect: true, onInspectorUrl: (u) => (url = u) }),
    );
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    expect(status).toBe(200);
    expect(result.reason).toBe('final_answer');
    // Closed with the run.
    await expect(fetch(url)).rejects.toThrow();
  });
});
