import { describe, expect, it } from 'vitest';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi } from './ui-harness.js';

closeUisAfterEach();

/** Keys typed apart, as a person does: written together they would arrive as one pasted chunk. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 150));

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('the input box keys', () => {
  it('Ctrl-W deletes a word, Ctrl-U the line, Ctrl-A goes to its start; Tab completes /con to a command', { timeout: 60_000 }, async () => {
    const ui = await startUi([{ text: 'Got it.' }]);
    ui.pty.type('say world');
    await pause();
    ui.pty.type('\x17'); // Ctrl-W: "say "
    await pause();
    ui.pty.type('\x01'); // Ctrl-A: the cursor to the start
    await pause();
    ui.pty.type('please ');
    await pause();
    ui.pty.type('\r');
    let at = await ui.pty.waitFor('Got it.', ui.at);
    const sent = (ui.fake.requests[0]!.body as { messages: Array<{ content: Array<{ text?: string }> }> }).messages.at(-1)!;
    expect(sent.content.map((block) => block.text)).toEqual(['please say']);

    ui.pty.type('this goes away');
    await pause();
    ui.pty.type('\x15'); // Ctrl-U
    await pause();
    ui.pty.type('/con');
    await pause();
    ui.pty.type('\t');
    await pause();
    ui.pty.type('\t');
    await pause();
    ui.pty.type('\r');
    at = await ui.pty.waitFor('Limits per task', at);
    expect(ui.fake.requests).toHaveLength(1);
  });

  it('keys typed faster than they are read (one chunk) still act: Ctrl-W, Ctrl-A, then text and Enter', { timeout: 60_000 }, async () => {
    const ui = await startUi([{ text: 'Got it.' }]);
    ui.pty.type('say world');
    await pause();
    ui.pty.type('\x17\x01please \r');
    await ui.pty.waitFor('Got it.', ui.at);
    const sent = (ui.fake.requests[0]!.body as { messages: Array<{ content: Array<{ text?: string }> }> }).messages.at(-1)!;
    expect(sent.content.map((block) => block.text)).toEqual(['please say']);
  });
});
