import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { SUMMARY_PREFIX } from '../../src/context/compaction.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { tempDir } from '../support/engine-harness.js';
import { jsonLines, runCli } from '../support/run-cli.js';
import { afterEach } from 'vitest';

/**
 * Compaction end to end: the built CLI against a fake API with a small context window, whose
 * "model" answers a summary request (a last user message asking for a summary) by listing every
 * fact it can see, as a faithful summariser would.
 */
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  expect(fake?.rejected ?? []).toEqual([]);
  await fake?.close();
  fake = undefined;
});

const WINDOW = 20_000;

function lastUserText(body: Record<string, unknown>): string {
  const messages = body.messages as Message[];
  const last = messages.at(-1)!;
  return last.content.map((b) => (b.type === 'text' ? String((b as { text: string }).text) : '')).join('');
}

/** Summary requests are answered with every FACT-n the request contains. */
function summariser(body: Record<string, unknown>): FakeResponse | null {
  if (!/summary/i.test(lastUserText(body))) return null;
  const facts = [...new Set(JSON.stringify(body.messages).match(/FACT-\d+ is \w+/g) ?? [])];
  return { text: `The task: read every file and report. Facts so far: ${facts.join('; ')}.` };
}

function env(home: string, url: string) {
  return { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: url, XAGENT_HOME: home };
}

describe('compaction', () => {
  it('finishes a 40-round session whose tool results are several times the window: every request under it, early facts kept', async () => {
    const workspace = tempDir('xagent-ws-');
    const home = tempDir('xagent-home-');
    for (let i = 0; i < 40; i++) {
      writeFileSync(
        path.join(workspace, `f${i}.txt`),
        `FACT-${i} is ${['red', 'green', 'blue', 'amber'][i % 4]}${i}\n${'filler text, one line of many.\n'.repeat(250)}`,
      );
    }
    const script: FakeResponse[] = [
      ...Array.from(
        { length: 40 },
        (_, i): FakeResponse => ({ content: [{ type: 'tool_use', id: `toolu_f${i}`, name: 'read_file', input: { path: `f${i}.txt` } }] }),
      ),
      { text: 'Read all forty files.' },
    ];
    fake = await startFakeAnthropic(script, { contextWindow: WINDOW, respond: summariser });
    const run = await runCli(
      [
        '-p',
        'read f0.txt to f39.txt',
        '--cwd',
        workspace,
        '--context-window',
        String(WINDOW),
        '--max-turns',
        '60',
        '--max-tool-calls',
        '60',
        '--output-format',
        'json',
      ],
      { env: env(home, fake.url) },
    );
    expect(run.code, run.stderr).toBe(0);
    const [result] = jsonLines(run.stdout) as Array<{ reason: string; trace_path: string; session_id: string }>;
    expect(result!.reason).toBe('final_answer');

    const toolResultTokens = 40 * Math.ceil('filler text, one line of many.\n'.repeat(250).length / 4);
    expect(toolResultTokens).toBeGreaterThan(3 * WINDOW);
    expect(fake.tooLong).toEqual([]);
    for (const usage of fake.usages) {
      expect(usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens).toBeLessThan(WINDOW);
    }
    // The last request starts from a summary that still has round 1's fact.
    const last = fake.requests.at(-1)!.body as { messages: Message[] };
    expect(JSON.stringify(last.messages[0])).toContain(SUMMARY_PREFIX);
    expect(JSON.stringify(last.messages[0])).toContain('FACT-0 is red0');
    expect(JSON.stringify(last.messages[0])).toContain('FACT-1 is green1');

    const trace = jsonLines(readFileSync(result!.trace_path, 'utf8'));
    const compactions = trace.filter((l) => l.event === 'compact');
    expect(
      compactions.length,
      JSON.stringify({
        compactions,
        usages: fake.usages.map((u) => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens),
        n: fake.requests.length,
      }),
    ).toBeGreaterThanOrEqual(3);
    expect(compactions.every((c) => c.reason === 'threshold' && typeof c.tokens_after === 'number')).toBe(true);
    // Each compaction is a wait of its own: one build_context.compacting line per summary request.
    expect(trace.filter((l) => l.state === 'build_context.compacting').length).toBe(compactions.length);
    // The transcript keeps the whole history, and marks each cut.
    const transcript = jsonLines(readFileSync(path.join(path.dirname(result!.trace_path), 'transcript.jsonl'), 'utf8'));
    expect(transcript.filter((l) => l.type === 'compaction')).toHaveLength(compactions.length);
    expect(transcript.filter((l) => JSON.stringify(l).includes('"tool_result"'))).toHaveLength(40);

    // --resume continues from the compacted context, not from the whole history.
    fake.push({ text: 'Still here.' });
    const resumed = await runCli(
      ['-p', 'what was FACT-0?', '--cwd', workspace, '--resume', result!.session_id, '--context-window', String(WINDOW)],
      { env: env(home, fake.url) },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const next = fake.requests.at(-1)!.body as { messages: Message[] };
    expect(JSON.stringify(next.messages[0])).toContain('FACT-0 is red0');
    expect(JSON.stringify(next.messages)).not.toContain('toolu_f0"');
  });

  it('compacts and retries once when the API answers 400 prompt is too long, then goes on', async () => {
    const workspace = tempDir('xagent-ws-');
    const home = tempDir('xagent-home-');
    writeFileSync(path.join(workspace, 'big.txt'), `FACT-1 is big1\n${`${'x'.repeat(79)}\n`.repeat(400)}`);
    writeFileSync(path.join(workspace, 'medium.txt'), `FACT-2 is medium2\n${`${'y'.repeat(79)}\n`.repeat(100)}`);
    fake = await startFakeAnthropic(
      [
        { content: [{ type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'big.txt' } }] },
        { content: [{ type: 'tool_use', id: 'toolu_m', name: 'read_file', input: { path: 'medium.txt' } }] },
        { text: 'Done.' },
      ],
      { contextWindow: 11_000, respond: summariser },
    );
    // The client believes in a bigger window, so only the API's 400 can tell it.
    const run = await runCli(
      ['-p', 'read big.txt then medium.txt', '--cwd', workspace, '--context-window', '200000', '--output-format', 'stream-json'],
      {
        env: env(home, fake.url),
      },
    );
    const events = jsonLines(run.stdout);
    expect(run.code, JSON.stringify(events.filter((e) => e.type !== 'state' && e.type !== 'text_delta'))).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: 'result', reason: 'final_answer' });
    expect(fake.tooLong).toHaveLength(1);
    const compact = events.find((e) => e.type === 'compact');
    expect(compact).toMatchObject({ reason: 'prompt_too_long', removed_messages: 3 });
    const states = events.filter((e) => e.type === 'state').map((e) => e.name);
    expect(states.join(' ')).toContain('call_model.requesting build_context.compacting call_model.checking_limits call_model.requesting');
  });

  it('stops with model_error when the prompt is still too long after its one compaction', async () => {
    const workspace = tempDir('xagent-ws-');
    const home = tempDir('xagent-home-');
    fake = await startFakeAnthropic([], { contextWindow: 1000, respond: summariser });
    const run = await runCli(
      ['-p', `a prompt far too long for the window ${'y'.repeat(8000)}`, '--cwd', workspace, '--output-format', 'json'],
      { env: env(home, fake.url) },
    );
    expect(run.code).toBe(8);
    const [result] = jsonLines(run.stdout);
    expect(result).toMatchObject({ reason: 'model_error', error: { message: expect.stringMatching(/prompt is too long/) } });
    // One retry after the (empty) compaction, then the stop: two 400s, no loop.
    expect(fake.tooLong).toHaveLength(2);
  });
});
