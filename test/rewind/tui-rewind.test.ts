import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { tempDir } from '../support/engine-harness.js';
import { HAVE_SCRIPT } from '../support/pty.js';
import { startUi, type Ui } from '../tui/ui-harness.js';

let ui: Ui | undefined;

afterEach(async () => {
  const rejected = ui?.fake.rejected ?? [];
  await ui?.close();
  ui = undefined;
  expect(rejected).toEqual([]);
});

const edit = (from: string, to: string) => ({
  content: [{ type: 'tool_use', name: 'edit_file', input: { path: 'notes.txt', old_string: from, new_string: to } }],
});
const messagesOf = (ui: Ui, index: number) =>
  JSON.parse(
    JSON.stringify((ui.fake.requests[index]?.body as { messages: Message[] }).messages, (k, v) => (k === 'cache_control' ? undefined : v)),
  );

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('/rewind in the terminal UI', () => {
  it('Esc Esc offers the messages, then the halves; a file changed by hand is overwritten only after a yes', {
    timeout: 90_000,
  }, async () => {
    const workspace = tempDir('xagent-ws-');
    const notes = path.join(workspace, 'notes.txt');
    writeFileSync(notes, 'one\r\ntwo\r\n');
    ui = await startUi([edit('one', 'ONE'), { text: 'First done.' }, edit('two', 'TWO'), { text: 'Second done.' }, { text: 'Again.' }], {
      flags: '--permission-mode bypassPermissions',
      workspace,
    });
    ui.pty.type('make one loud\r');
    let at = await ui.pty.waitFor('First done.', ui.at);
    ui.pty.type('make two loud\r');
    at = await ui.pty.waitFor('Second done.', at);
    const secondTask = 2;
    appendFileSync(notes, 'mine\r\n');

    // Esc twice on the empty prompt: the list of messages, with the bash caveat.
    ui.pty.type('\x1b');
    at = await ui.pty.waitFor('Esc again to rewind', at);
    ui.pty.type('\x1b');
    at = await ui.pty.waitFor('Rewind to which of your messages?', at);
    await ui.pty.waitFor('changes made by bash', at);
    ui.pty.type('2');
    at = await ui.pty.waitFor('Restore code and conversation', at);
    ui.pty.type('1');
    at = await ui.pty.waitFor('These files were changed outside xagent since its last change:', at);
    ui.pty.type('2');
    at = await ui.pty.waitFor('Not rewound: nothing was changed.', at);
    expect(readFileSync(notes, 'utf8')).toBe('ONE\r\nTWO\r\nmine\r\n');

    ui.pty.type('/rewind\r');
    at = await ui.pty.waitFor('Rewind to which of your messages?', at);
    ui.pty.type('2');
    at = await ui.pty.waitFor('Restore code and conversation', at);
    ui.pty.type('1');
    at = await ui.pty.waitFor('These files were changed outside xagent since its last change:', at);
    ui.pty.type('1');
    at = await ui.pty.waitFor('Conversation: 8 messages, now 4.', at);
    expect(readFileSync(notes, 'utf8')).toBe('ONE\r\ntwo\r\n');

    // The next task goes on from the cut conversation.
    ui.pty.type('make two loud\r');
    await ui.pty.waitFor('Again.', at);
    expect(messagesOf(ui, ui.fake.requests.length - 1)).toEqual(messagesOf(ui, secondTask));
  });
});
