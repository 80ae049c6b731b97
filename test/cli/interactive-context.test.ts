import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { SUMMARY_PREFIX } from '../../src/context/compaction.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { tempDir } from '../support/engine-harness.js';
import { HAVE_SCRIPT, startInPty } from '../support/pty.js';
import { CLI } from '../support/run-cli.js';

let fake: FakeAnthropic | undefined;

afterEach(async () => {
  expect(fake?.rejected ?? []).toEqual([]);
  await fake?.close();
});

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('/context, /cost and /compact in interactive mode', () => {
  it('shows the context and the cost, and compacts on demand so the next task starts from the summary', async () => {
    fake = await startFakeAnthropic([
      { text: 'The secret word is pelican.' },
      { text: 'Noted.' },
      { text: 'The user asked for the secret word: pelican.' },
      { text: 'It was pelican.' },
    ]);
    const workspace = tempDir('xagent-ws-');
    const home = tempDir('xagent-home-');
    writeFileSync(path.join(workspace, 'AGENTS.md'), 'Be brief.');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: tempDir(),
      TERM: 'dumb',
      XAGENT_HOME: home,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.url,
    };
    const pty = startInPty(`${process.execPath} ${CLI} --model claude-haiku-4-5`, env, workspace);

    const wait = (pattern: string, from = 0) =>
      Promise.race([
        pty.waitFor(pattern, from),
        new Promise<number>((_, reject) =>
          setTimeout(() => reject(new Error(`no ${pattern} after ${from}; screen:\n${pty.screen()}`)), 10_000).unref(),
        ),
      ]);
    let at = await wait('› ');
    pty.type('what is the secret word?\r');
    at = await wait('pelican.', at);
    pty.type('remember it\r');
    at = await wait('Noted.', at);
    at = await wait('› ', at);

    pty.type('/cost\r');
    at = await wait('Cost: $', at);
    at = await wait('read from the cache', at);
    pty.type('/context\r');
    at = await wait('Context: ~', at);
    at = await wait(`AGENTS.md (9 chars)`, at);

    pty.type('/compact\r');
    at = await wait('Compacted 3 messages into a summary', at);
    pty.type('and the word was?\r');
    at = await wait('It was pelican.', at);
    pty.type('\x04');
    expect(await pty.exited).toBe(0);

    const summaryRequest = fake.requests[2]!.body as { messages: Message[] };
    expect(JSON.stringify(summaryRequest.messages.at(-1))).toMatch(/summary/);
    const next = fake.requests[3]!.body as { messages: Message[] };
    expect(JSON.stringify(next.messages[0])).toContain(SUMMARY_PREFIX);
    expect(JSON.stringify(next.messages[0])).toContain('pelican');
    // The transcript keeps every message and marks the cut.
    const sessions = path.join(home, 'sessions');
    const [id] = (await import('node:fs')).readdirSync(sessions);
    const lines = readFileSync(path.join(sessions, id!, 'transcript.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type?: string });
    expect(lines.filter((l) => l.type === 'compaction')).toHaveLength(1);
    expect(lines.filter((l) => l.type !== 'compaction')).toHaveLength(6);
  });
});
