import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { tempDir, unpairedToolUses } from '../support/engine-harness.js';
import { HAVE_SCRIPT, startInPty } from '../support/pty.js';
import { CLI } from '../support/run-cli.js';

let fake: FakeAnthropic | undefined;

afterEach(async () => {
  expect(fake?.rejected ?? []).toEqual([]);
  await fake?.close();
});

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('the line prompt on a terminal that cannot move the cursor (TERM=dumb)', () => {
  it('runs each line as a task in one conversation, asks permission, stops a task on Ctrl-C and leaves on Ctrl-D', async () => {
    fake = await startFakeAnthropic([
      { text: 'First answer.' },
      { content: [{ type: 'tool_use', id: 'toolu_w', name: 'write_file', input: { path: 'note.txt', content: 'hi' } }] },
      { text: 'Wrote it.' },
      { text: 'word '.repeat(400), eventDelayMs: 40 },
      { text: 'Still here.' },
    ]);
    const workspace = tempDir('xagent-ws-');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: tempDir(),
      TERM: 'dumb',
      XAGENT_HOME: tempDir(),
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.url,
    };
    const pty = startInPty(`${process.execPath} ${CLI}`, env, workspace);

    let at = await pty.waitFor('› ');
    pty.type('say hello\r');
    at = await pty.waitFor('First answer.', at);
    at = await pty.waitFor('› ', at);

    pty.type('write a note\r');
    at = await pty.waitFor('Allow? [y]es, [n]o', at);
    pty.type('y\r');
    at = await pty.waitFor('Wrote it.', at);
    expect(readFileSync(path.join(workspace, 'note.txt'), 'utf8')).toBe('hi');

    pty.type('talk a lot\r');
    at = await pty.waitFor('word word', at);
    pty.type('\x03');
    at = await pty.waitFor('Interrupted', at);
    at = await pty.waitFor('› ', at);

    pty.type('are you there?\r');
    at = await pty.waitFor('Still here.', at);
    pty.type('\x04');
    expect(await pty.exited).toBe(0);

    // The request after the interrupt carries the whole conversation, and the fake accepted it.
    const last = fake.requests.at(-1)!.body as { messages: Message[] };
    expect(JSON.stringify(last.messages)).toContain('First answer.');
    expect(JSON.stringify(last.messages)).toContain('toolu_w');
    expect(unpairedToolUses(last.messages)).toEqual([]);
    expect(fake.disconnected).toEqual([3]);
    expect(existsSync(path.join(workspace, '.xagent'))).toBe(false);
  });
  it('keeps a line typed while a task runs and runs it after, in the order typed', async () => {
    // The first answer takes about 3 s (three deltas 1 s apart); two lines are typed meanwhile.
    fake = await startFakeAnthropic([{ text: 'slow answer done', eventDelayMs: 1000 }, { text: 'Second.' }, { text: 'Third.' }]);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: tempDir(),
      TERM: 'dumb',
      XAGENT_HOME: tempDir(),
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.url,
    };
    const pty = startInPty(`${process.execPath} ${CLI}`, env, tempDir('xagent-ws-'));
    let at = await pty.waitFor('› ');
    pty.type('one\r');
    at = await pty.waitFor('Thinking', at);
    pty.type('two\r');
    pty.type('/cost\r');
    pty.type('three\r');
    await pty.waitFor('Third.', at);
    const lastUser = (n: number) => JSON.stringify((fake?.requests[n]?.body as { messages: Message[] }).messages.at(-1));
    expect([lastUser(0), lastUser(1), lastUser(2)].map((text) => /"(one|two|three)"/.exec(text)?.[1])).toEqual(['one', 'two', 'three']);
    expect(pty.screen()).toContain('Cost: $');
    pty.type('\x04');
    expect(await pty.exited).toBe(0);
  });
});
