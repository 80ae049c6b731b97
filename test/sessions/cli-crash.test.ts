import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { readMeta } from '../../src/sessions/meta.js';
import { INTERRUPTED_TEXT, pairingProblems } from '../../src/sessions/repair.js';
import { loadTranscript } from '../../src/sessions/transcript.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { assertBuilt, killProcessGroupFrom, runCli, sandbox, sessionIdOf, startCli, waitFor } from './cli.js';

/** kill -9 at the worst moments, then --resume: the next request must be one the API accepts. */

beforeAll(assertBuilt);

let fake: FakeAnthropic | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await fake?.close();
  fake = undefined;
});

const messagesOf = (request: { body: unknown } | undefined) => (request?.body as { messages: Message[] }).messages;
const resultFor = (messages: Message[], id: string) =>
  messages.flatMap((m) => m.content).find((b) => b.type === 'tool_result' && (b as { tool_use_id?: string }).tool_use_id === id) as
    | { content: string; is_error?: boolean }
    | undefined;

describe('kill -9, then --resume, against the fake Anthropic API', () => {
  it('resumes a session killed during a tool: the running bash call is reported interrupted and not re-run, the finished read keeps its output', async () => {
    const box = sandbox();
    fake = await startFakeAnthropic([
      {
        content: [
          { type: 'text', text: 'Reading, then testing.' },
          { type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'notes.txt' } },
          { type: 'tool_use', id: 'toolu_slow', name: 'bash', input: { command: 'echo $$ > pid.txt; echo ran >> marker.txt; sleep 30' } },
        ],
      },
    ]);
    const env = box.env({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });
    const pidFile = path.join(box.workspace, 'pid.txt');
    cleanups.push(() => killProcessGroupFrom(pidFile));

    const first = startCli(
      ['-p', 'read the notes and run the tests', '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions'],
      { env, cwd: box.workspace },
    );
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the bash tool to start', first);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    killProcessGroupFrom(pidFile);
    const id = sessionIdOf(first);
    expect(readMeta(path.join(box.home, 'sessions', id))).toMatchObject({ meta: { status: 'running' } });

    fake.push({ text: 'The tests were interrupted; the notes say hello.' });
    const resumed = await runCli(['-p', 'what happened?', '--resume', id, '--output-format', 'json'], { env, cwd: box.workspace });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ reason: 'final_answer', session_id: id });
    expect(resumed.stderr).toContain('marked interrupted; nothing was re-run');

    expect(fake.rejected).toEqual([]);
    const sent = messagesOf(fake.requests.at(-1));
    expect(pairingProblems(sent)).toEqual([]);
    expect(resultFor(sent, 'toolu_slow')).toMatchObject({ content: INTERRUPTED_TEXT, is_error: true });
    expect(resultFor(sent, 'toolu_read')?.content).toContain('the notes say hello');
    expect(readFileSync(path.join(box.workspace, 'marker.txt'), 'utf8')).toBe('ran\n');
    const transcript = loadTranscript(path.join(box.home, 'sessions', id));
    expect(transcript.problems).toEqual([]);
    expect(pairingProblems(transcript.messages)).toEqual([]);
  });

  it('resumes a session killed in the middle of a streamed answer', async () => {
    const box = sandbox();
    fake = await startFakeAnthropic([{ text: 'a long answer that streams slowly, '.repeat(20), eventDelayMs: 100 }]);
    const env = box.env({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url });

    const first = startCli(['-p', 'explain the notes', '--output-format', 'stream-json'], { env, cwd: box.workspace });
    await waitFor(() => first.events().some((e) => e.type === 'text_delta'), 'the answer to start streaming', first);
    first.child.kill('SIGKILL');
    await first.exited;
    const id = sessionIdOf(first);

    fake.push({ text: 'Short answer this time.' });
    const resumed = await runCli(['-p', 'try again, briefly', '--resume', id, '--output-format', 'json'], { env, cwd: box.workspace });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(fake.rejected).toEqual([]);
    const sent = messagesOf(fake.requests.at(-1));
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0])).toContain('explain the notes');
    expect(JSON.stringify(sent[0])).toContain('try again, briefly');
    expect(readMeta(path.join(box.home, 'sessions', id))).toMatchObject({
      meta: { status: 'idle', tasks: 2, turns: 1, last_stop_reason: 'final_answer' },
    });
  });
});

describe('kill -9, then --resume, with a scripted model', () => {
  it('resumes a session killed during a slow model call and records both prompts in order', async () => {
    const box = sandbox();
    const env = box.env();
    const first = startCli(
      [
        '-p',
        'first question',
        '--model-script',
        box.script('slow.json', [{ text: 'never seen', delay_ms: 30_000 }]),
        '--output-format',
        'stream-json',
      ],
      {
        env,
        cwd: box.workspace,
      },
    );
    await waitFor(() => first.events().some((e) => e.type === 'state' && e.name === 'call_model.requesting'), 'the model call', first);
    first.child.kill('SIGKILL');
    await first.exited;
    const id = sessionIdOf(first);

    const resumed = await runCli(
      ['-p', 'second question', '--resume', id, '--model-script', box.script('quick.json', [{ text: 'answered' }])],
      {
        env,
        cwd: box.workspace,
      },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('answered');
    const { messages, problems } = loadTranscript(path.join(box.home, 'sessions', id));
    expect(problems).toEqual([]);
    expect(messages.map((m) => [m.role, JSON.stringify(m.content)])).toEqual([
      ['user', expect.stringContaining('first question')],
      ['user', expect.stringContaining('second question')],
      ['assistant', expect.stringContaining('answered')],
    ]);
  });
});
