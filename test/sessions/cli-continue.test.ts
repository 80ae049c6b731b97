import { appendFileSync, existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { readMeta } from '../../src/sessions/meta.js';
import { pairingProblems } from '../../src/sessions/repair.js';
import { loadTranscript } from '../../src/sessions/transcript.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { assertBuilt, killProcessGroupFrom, runCli, sandbox, startCli, waitFor } from './cli.js';

beforeAll(assertBuilt);

let fake: FakeAnthropic | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await fake?.close();
  fake = undefined;
});

describe('abort, then --continue', () => {
  it('accepts the next task after Ctrl-C in the middle of a tool queue', async () => {
    const box = sandbox();
    fake = await startFakeAnthropic([
      {
        content: [
          { type: 'tool_use', id: 'toolu_sleep', name: 'bash', input: { command: 'echo $$ > pid.txt; sleep 30' } },
          { type: 'tool_use', id: 'toolu_next', name: 'read_file', input: { path: 'notes.txt' } },
        ],
      },
    ]);
    const env = box.env({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
    const pidFile = path.join(box.workspace, 'pid.txt');
    cleanups.push(() => killProcessGroupFrom(pidFile));

    const first = startCli(['-p', 'sleep, then read', '--permission-mode', 'bypassPermissions'], { env, cwd: box.workspace });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the bash tool to start', first);
    first.child.kill('SIGINT');
    expect((await first.exited).code).toBe(130);
    const [id] = readdirSync(path.join(box.home, 'sessions'));
    expect(readMeta(path.join(box.home, 'sessions', id!))).toMatchObject({ meta: { last_stop_reason: 'user_abort', status: 'idle' } });

    fake.push({ text: 'Fine, stopping there.' });
    const next = await runCli(['-p', 'never mind, just say ok', '--continue', '--output-format', 'json'], { env, cwd: box.workspace });
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ session_id: id, reason: 'final_answer' });
    expect(fake.rejected).toEqual([]);
    const sent = (fake.requests.at(-1)?.body as { messages: Message[] }).messages;
    expect(pairingProblems(sent)).toEqual([]);
    expect(sent.at(-1)?.content).toMatchObject([
      { type: 'tool_result', tool_use_id: 'toolu_sleep', is_error: true, content: expect.stringContaining('interrupted') },
      { type: 'tool_result', tool_use_id: 'toolu_next', is_error: true },
      { type: 'text', text: '[Request interrupted by user]' },
      { type: 'text', text: 'never mind, just say ok' },
    ]);
    expect(next.stderr).toContain(`Resumed ${id} · 4 messages · last: "sleep, then read"`);
  });

  it('keeps the partial answer and starts the next request with the interrupt marker', async () => {
    const box = sandbox();
    fake = await startFakeAnthropic([{ text: `The plan: ${'step '.repeat(300)}`, eventDelayMs: 30 }]);
    const env = box.env({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
    const first = startCli(['-p', 'make a plan', '--output-format', 'stream-json'], { env, cwd: box.workspace });
    await waitFor(() => first.stdout().includes('step step'), 'the answer to stream', first);
    first.child.kill('SIGINT');
    expect((await first.exited).code).toBe(130);

    fake.push({ text: 'Shorter, then.' });
    const next = await runCli(['-p', 'shorter please', '--continue', '--output-format', 'json'], { env, cwd: box.workspace });
    expect(next.code, next.stderr).toBe(0);
    expect(fake.rejected).toEqual([]);
    const sent = (fake.requests.at(-1)?.body as { messages: Message[] }).messages;
    expect(sent).toHaveLength(3);
    expect(sent[1]).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: expect.stringMatching(/^The plan: step step/) }] });
    // The newest message carries the rolling cache breakpoint; the blocks are the marker, then the prompt.
    expect(sent[2]?.role).toBe('user');
    expect(sent[2]?.content.map((b) => (b as { text?: string }).text)).toEqual(['[Request interrupted by user]', 'shorter please']);
  });
});

describe('a torn transcript', () => {
  it('resumes with a warning when the last transcript line was cut off mid-write', async () => {
    const box = sandbox();
    const env = box.env();
    const first = await runCli(
      ['-p', 'hello', '--model-script', box.script('one.json', [{ text: 'hi there' }]), '--output-format', 'json'],
      {
        env,
        cwd: box.workspace,
      },
    );
    const id = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const file = path.join(box.home, 'sessions', id, 'transcript.jsonl');
    appendFileSync(file, '{"role":"assistant","content":[{"type":"text","te');

    const resumed = await runCli(['-p', 'again', '--resume', id, '--model-script', box.script('two.json', [{ text: 'hi again' }])], {
      env,
      cwd: box.workspace,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/warning: .*transcript\.jsonl: dropped a torn last line/);
    const { messages, problems } = loadTranscript(path.dirname(file));
    expect(problems).toEqual([]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });
});

describe('choosing the session', () => {
  it('exits 2 with a clear message for an unknown id, nothing to continue, or both flags', async () => {
    const box = sandbox();
    const env = box.env();
    const script = box.script('s.json', [{ text: 'x' }]);
    const unknown = await runCli(['-p', 'x', '--resume', 'no-such-session', '--model-script', script], { env, cwd: box.workspace });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no session "no-such-session"');
    const nothing = await runCli(['-p', 'x', '--continue', '--model-script', script], { env, cwd: box.workspace });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain(`no session to continue in ${realpathSync(box.workspace)}`);
    const both = await runCli(['-p', 'x', '--continue', '--resume', 'a', '--model-script', script], { env, cwd: box.workspace });
    expect(both.code).toBe(2);
    expect(existsSync(path.join(box.home, 'sessions'))).toBe(false);
  });

  it('exits 2 when another live process holds the session', async () => {
    const box = sandbox();
    const env = box.env();
    const first = await runCli(['-p', 'hello', '--model-script', box.script('one.json', [{ text: 'hi' }]), '--output-format', 'json'], {
      env,
      cwd: box.workspace,
    });
    const id = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    writeFileSync(path.join(box.home, 'sessions', id, 'lock'), JSON.stringify({ pid: process.pid }));
    const second = await runCli(['-p', 'again', '--resume', id, '--model-script', box.script('two.json', [{ text: 'x' }])], {
      env,
      cwd: box.workspace,
    });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`session ${id} is in use by another xagent process (pid ${process.pid})`);
  });
});
