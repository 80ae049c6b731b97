import { existsSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContentBlock, Message } from '../../machines/types.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { tempDir, unpairedToolUses } from '../support/engine-harness.js';
import { HAVE_SCRIPT, startInPty, type PtySession } from '../support/pty.js';
import { CLI } from '../support/run-cli.js';

let fake: FakeAnthropic | undefined;
let pty: PtySession | undefined;

afterEach(async () => {
  if (pty) {
    // Esc closes a dialog a failed test may have left open; Ctrl-D leaves; a kill if that is not enough.
    pty.type('\x1b');
    pty.type('\x04');
    await Promise.race([pty.exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    pty.kill();
  }
  pty = undefined;
  expect(fake?.rejected ?? []).toEqual([]);
  await fake?.close();
  fake = undefined;
});

/** The UI on a real pseudo-terminal of 100 columns, against the fake API. */
async function startUi(script: FakeResponse[]) {
  fake = await startFakeAnthropic(script);
  const workspace = tempDir('xagent-ws-');
  const home = tempDir('xagent-home-');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: tempDir(),
    TERM: 'xterm-256color',
    XAGENT_HOME: home,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: fake.url,
  };
  const session = startInPty(`stty cols 100 rows 50; exec ${process.execPath} ${CLI}`, env, workspace);
  pty = session;
  // The helper waits without end; here a missing text fails with what the screen showed.
  const waitFor = (pattern: string | RegExp, from = 0) =>
    Promise.race([
      session.waitFor(pattern, from),
      new Promise<number>((_, reject) =>
        setTimeout(
          () => reject(new Error(`${String(pattern)} did not appear; the screen ends:\n${session.screen().slice(-3000)}`)),
          20_000,
        ).unref(),
      ),
    ]);
  const ui = { pty: { ...session, waitFor }, workspace, home, fake, at: 0 };
  ui.at = await waitFor('/help', 0);
  return ui;
}

const sent = (request: number): Message[] => (fake!.requests[request]!.body as { messages: Message[] }).messages;
/** The blocks as sent, without the rolling cache breakpoint the request builder adds to the newest message. */
const texts = (message: Message | undefined) =>
  (message?.content ?? []).map((block) => {
    const { cache_control: _breakpoint, ...rest } = block as ContentBlock & { cache_control?: unknown };
    return rest as ContentBlock;
  });

function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) =>
    get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject),
  );
}

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('the interactive terminal UI', () => {
  it('sends a multi-line prompt, renders markdown, stops on Esc and marks the next request as after an interrupt; Ctrl-D prints the resume command', {
    timeout: 90_000,
  }, async () => {
    const ui = await startUi([
      { text: '# Plan\n\nThe answer has **bold** words and a list:\n\n- first item\n- second item\n' },
      { text: 'word '.repeat(400), eventDelayMs: 40 },
      { text: 'Back again.' },
    ]);
    let at = ui.at;

    ui.pty.type('first line\\');
    ui.pty.type('\r');
    ui.pty.type('second line');
    ui.pty.type('\r');
    // marked-terminal draws list items with `*`; the streamed raw text had `-`.
    at = await ui.pty.waitFor('* first item', at);
    expect(texts(sent(0).at(-1))).toEqual([{ type: 'text', text: 'first line\nsecond line' }]);

    ui.pty.type('talk a lot\r');
    at = await ui.pty.waitFor('word word word', at);
    at = await ui.pty.waitFor(/Thinking · [\d.]+s · ↓ \d+ tokens/, ui.at);
    ui.pty.type('\x1b');
    at = await ui.pty.waitFor('Interrupted', at);

    ui.pty.type('are you there?\r');
    at = await ui.pty.waitFor('Back again.', at);
    const last = sent(2);
    expect(unpairedToolUses(last)).toEqual([]);
    expect(last.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: expect.stringMatching(/^word word/) }] });
    expect(texts(last.at(-1))).toEqual([
      { type: 'text', text: '[Request interrupted by user]' },
      { type: 'text', text: 'are you there?' },
    ]);

    ui.pty.type('\x04');
    await ui.pty.waitFor(/Resume this session with: xagent --resume [0-9a-f-]{36}/, at);
    expect(await ui.pty.exited).toBe(0);
    pty = undefined;
  });

  it('asks with a dialog: 1 runs it, 2 saves a prefix rule to settings.local.json, 3 sends instructions back and the task goes on', {
    timeout: 90_000,
  }, async () => {
    const ui = await startUi([
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'echo one > one.txt' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_2', name: 'bash', input: { command: 'mkdir out --parents' } }] },
      {
        content: [{ type: 'tool_use', id: 'toolu_3', name: 'edit_file', input: { path: 'one.txt', old_string: 'one', new_string: 'uno' } }],
      },
      { text: 'Left one.txt as it was.' },
    ]);
    let at = ui.at;
    ui.pty.type('do three things\r');

    at = await ui.pty.waitFor('Run bash?', at);
    at = await ui.pty.waitFor('$ echo one > one.txt', at);
    at = await ui.pty.waitFor('3. No, and tell xagent what to do instead', at);
    ui.pty.type('1');
    at = await ui.pty.waitFor('⎿ exit 0 · no output', at);
    expect(readFileSync(path.join(ui.workspace, 'one.txt'), 'utf8')).toBe('one\n');

    at = await ui.pty.waitFor("2. Yes, and don't ask again for bash(mkdir out*)", at);
    ui.pty.type('2');
    // The result line, not the activity line (drawn while mkdir may still run): the directory exists by then.
    at = await ui.pty.waitFor(/bash mkdir out --parents\s+⎿ exit 0/, at);
    expect(existsSync(path.join(ui.workspace, 'out'))).toBe(true);
    const local = path.join(ui.workspace, '.xagent', 'settings.local.json');
    expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({ permissions: { allow: ['bash(mkdir out*)'] } });

    // The edit's diff, with the line number of the changed line.
    at = await ui.pty.waitFor('Edit one.txt?', at);
    at = await ui.pty.waitFor('1 - one', at);
    at = await ui.pty.waitFor('1 + uno', at);
    ui.pty.type('3');
    at = await ui.pty.waitFor('Tell xagent what to do instead', at);
    ui.pty.type('leave the file alone');
    ui.pty.type('\r');
    at = await ui.pty.waitFor('Left one.txt as it was.', at);
    expect(readFileSync(path.join(ui.workspace, 'one.txt'), 'utf8')).toBe('one\n');
    expect(texts(sent(3).at(-1))).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_3',
        is_error: true,
        content: 'The user declined this edit_file call and said what to do instead: leave the file alone',
      },
    ]);

    ui.pty.type('/help\r');
    at = await ui.pty.waitFor('/inspect', at);
    at = await ui.pty.waitFor('/permissions', at);

    ui.pty.type('/permissions\r');
    at = await ui.pty.waitFor('Permission mode: default (from default)', at);
    at = await ui.pty.waitFor(new RegExp(`allow\\s+bash\\(mkdir out\\*\\)\\s+${local.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`), at);

    ui.pty.type('/inspect\r');
    await ui.pty.waitFor(/Inspector: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/, at);
    const url = /Inspector: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(ui.pty.screen().slice(at))![1]!;
    expect(await getStatus(url)).toBe(200);
  });

  it('/clear starts a new session; /resume <id> goes back to the first with its last exchange', { timeout: 90_000 }, async () => {
    const ui = await startUi([{ text: 'The first answer.' }, { text: 'Fresh start.' }, { text: 'Continued.' }]);
    let at = ui.at;
    ui.pty.type('first task\r');
    at = await ui.pty.waitFor('The first answer.', at);
    const first = /session ([0-9a-f]{8})/.exec(ui.pty.screen())![1]!;

    ui.pty.type('/clear\r');
    at = await ui.pty.waitFor(/New session [0-9a-f-]{36}\. The previous one: xagent --resume/, at);
    ui.pty.type('second task\r');
    at = await ui.pty.waitFor('Fresh start.', at);
    expect(sent(1)).toHaveLength(1);

    ui.pty.type(`/resume ${first}\r`);
    at = await ui.pty.waitFor(new RegExp(`Resumed ${first}[0-9a-f-]+ · 2 messages · last: "first task"`), at);
    at = await ui.pty.waitFor('The first answer.', at);
    ui.pty.type('go on\r');
    at = await ui.pty.waitFor('Continued.', at);
    expect(sent(2).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent(2))).not.toContain('second task');
  });
});
