import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { costUsd } from '../../src/model/cost.js';
import { useFakeApi } from '../support/fake-api-env.js';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/** Caching, thinking, cost and project instructions, end to end: the built CLI against the fake API. */
const api = useFakeApi();

const readNotes = (n: number): FakeResponse => ({
  content: [{ type: 'tool_use', id: `toolu_r${n}`, name: 'read_file', input: { path: 'notes.txt' } }],
});

describe('prompt caching', () => {
  it('reads at least 80 % of the input tokens from the cache over a 20-round session, more each round', async () => {
    const script = [...Array.from({ length: 19 }, (_, i) => readNotes(i)), { text: 'Read it 19 times.' }];
    const env = await api.start(script);
    writeFileSync(path.join(api.workspace, 'notes.txt'), 'a line of notes\n'.repeat(20));
    const run = await runCli(
      ['-p', 'read notes.txt 19 times', '--cwd', api.workspace, '--max-turns', '25', '--max-tool-calls', '25', '--output-format', 'json'],
      { env },
    );
    expect(run.code, run.stderr).toBe(0);
    const [result] = jsonLines(run.stdout) as Array<{ usage: Record<string, number> }>;
    const { input_tokens, cache_read_input_tokens, cache_creation_input_tokens } = result!.usage;
    const totalInput = input_tokens! + cache_read_input_tokens! + cache_creation_input_tokens!;
    expect(cache_read_input_tokens! / totalInput).toBeGreaterThanOrEqual(0.8);
    const reads = api.fake.usages.map((u) => u.cache_read_input_tokens);
    expect(reads).toHaveLength(20);
    for (let i = 2; i < reads.length; i++) expect(reads[i]!).toBeGreaterThan(reads[i - 1]!);
    // Every request kept to the API's limit of four breakpoints.
    for (const request of api.fake.requests) expect(JSON.stringify(request.body).match(/"cache_control"/g)!.length).toBeLessThanOrEqual(4);
  });
});

describe('cost', () => {
  it('puts total_cost_usd = usage x price in the json result and the session list, and cache figures in usage', async () => {
    const env = await api.start([readNotes(1), { text: 'done' }]);
    writeFileSync(path.join(api.workspace, 'notes.txt'), 'hi\n');
    const run = await runCli(['-p', 'read notes', '--cwd', api.workspace, '--model', 'claude-haiku-4-5', '--output-format', 'json'], {
      env,
    });
    const [result] = jsonLines(run.stdout) as Array<{
      usage: { input_tokens: number; output_tokens: number };
      total_cost_usd: number;
      session_id: string;
    }>;
    expect(result!.usage).toHaveProperty('cache_read_input_tokens');
    expect(result!.usage).toHaveProperty('cache_creation_input_tokens');
    expect(result!.total_cost_usd).toBeGreaterThan(0);
    expect(result!.total_cost_usd).toBe(costUsd('claude-haiku-4-5', result!.usage));
    const list = await runCli(['sessions', '--json'], { env });
    const [session] = JSON.parse(list.stdout) as Array<{ id: string; total_cost_usd: number; usage: unknown }>;
    expect(session).toMatchObject({ id: result!.session_id, total_cost_usd: result!.total_cost_usd, usage: result!.usage });
  });

  it('says null, not a guess, for a model whose price is unknown', async () => {
    const env = await api.start([{ text: 'ok' }]);
    const run = await runCli(['-p', 'hi', '--cwd', api.workspace, '--model', 'claude-unknown-9', '--output-format', 'stream-json'], {
      env,
    });
    const result = jsonLines(run.stdout).at(-1)!;
    expect(result).toMatchObject({ type: 'result', total_cost_usd: null });
  });
});

describe('extended thinking', () => {
  it('sends thinking, streams thinking_delta, and sends thinking blocks back byte for byte, also after --resume', async () => {
    const thinkingBlock = { type: 'thinking', thinking: 'The notes file should say something.' };
    const env = await api.start([
      { content: [thinkingBlock, { type: 'tool_use', id: 'toolu_t1', name: 'read_file', input: { path: 'notes.txt' } }] },
      { content: [{ type: 'redacted_thinking' }, { type: 'text', text: 'It says hi.' }] },
      { text: 'Still hi.' },
    ]);
    writeFileSync(path.join(api.workspace, 'notes.txt'), 'hi\n');
    const run = await runCli(
      ['-p', 'read notes', '--cwd', api.workspace, '--max-thinking-tokens', '2048', '--output-format', 'stream-json'],
      { env },
    );
    expect(run.code, run.stderr).toBe(0);
    const events = jsonLines(run.stdout);
    expect(
      events
        .filter((e) => e.type === 'thinking_delta')
        .map((e) => e.thinking)
        .join(''),
    ).toBe(thinkingBlock.thinking);
    const first = api.fake.requests[0]!.body as { thinking: unknown; max_tokens: number };
    expect(first.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(first.max_tokens).toBeGreaterThan(2048);
    // What the fake sent in answer 1 is what came back in request 2, signature and all.
    const second = api.fake.requests[1]!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(second.messages[1]!.content[0]).toMatchObject({
      type: 'thinking',
      thinking: thinkingBlock.thinking,
      signature: expect.any(String),
    });
    const sessionId = String(events.at(-1)!.session_id);
    const resumed = await runCli(['-p', 'again', '--cwd', api.workspace, '--resume', sessionId, '--max-thinking-tokens', '2048'], {
      env: { ...env, MAX_THINKING_TOKENS: '0' },
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    const third = api.fake.requests[2]!.body as { messages: Array<{ content: Array<Record<string, unknown>> }> };
    expect(third.messages[1]!.content[0]).toEqual(second.messages[1]!.content[0]);
    expect(third.messages[3]!.content[0]).toMatchObject({ type: 'redacted_thinking', data: expect.any(String) });
    // Text mode: a dim one-line summary on stderr, nothing of the thinking on stdout.
    expect(resumed.stdout).toBe('Still hi.\n');
    expect(resumed.stderr).toMatch(/✻ thinking… \(\d+ chars\)/);
  });

  it('refuses a budget under 1024 as a usage error', async () => {
    const env = await api.start([]);
    const run = await runCli(['-p', 'x', '--cwd', api.workspace, '--max-thinking-tokens', '500'], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--max-thinking-tokens must be 0 \(off\) or at least 1024/);
    const fromEnv = await runCli(['-p', 'x', '--cwd', api.workspace], { env: { ...env, MAX_THINKING_TOKENS: 'lots' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/MAX_THINKING_TOKENS "lots" must be a whole number/);
  });
});

describe('project instructions', () => {
  it('puts AGENTS.md and $XAGENT_HOME/AGENTS.md in the system prompt and lists them in task_start', async () => {
    const env = await api.start([{ text: 'ok' }]);
    writeFileSync(path.join(api.workspace, 'AGENTS.md'), 'Use tabs, never spaces.');
    writeFileSync(path.join(api.home, 'AGENTS.md'), 'Answer in French.');
    const run = await runCli(['-p', 'hi', '--cwd', api.workspace, '--output-format', 'json'], { env });
    const body = api.fake.requests[0]!.body as { system: Array<{ text: string }> };
    expect(body.system[0]!.text).toContain('Use tabs, never spaces.');
    expect(body.system[0]!.text).toContain('Answer in French.');
    const [result] = jsonLines(run.stdout) as Array<{ trace_path: string }>;
    const [start] = jsonLines((await import('node:fs')).readFileSync(result!.trace_path, 'utf8'));
    expect(start).toMatchObject({
      event: 'task_start',
      instructions: [path.join(api.home, 'AGENTS.md'), expect.stringMatching(/AGENTS\.md$/)],
    });
  });
});
