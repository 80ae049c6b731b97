import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi, type Ui } from './ui-harness.js';

/** A command typed behind a queued message runs after it, in the order typed (it could overtake it). */

closeUisAfterEach();

const lastText = (u: Ui, request: number) => {
  const last = (u.fake.requests[request]!.body as { messages: Message[] }).messages.at(-1)!;
  return last.content.map((block) => (block as { text?: string }).text ?? '').join('');
};

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('input typed while a task runs', () => {
  it('a message and then /clear typed during a long answer run after it, in the order typed', { timeout: 90_000 }, async () => {
    // Three chunks of text half a second apart: the task runs for seconds after the first words show.
    const ui = await startUi([{ text: 'word '.repeat(300), eventDelayMs: 500 }, { text: 'The second answer.' }]);
    ui.pty.type('talk a lot\r');
    let at = await ui.pty.waitFor('word word word', ui.at);
    ui.pty.type('and then this\r');
    at = await ui.pty.waitFor('Queued (1)', at);
    ui.pty.type('/clear\r');
    // The message in the first session, then /clear.
    at = await ui.pty.waitFor('The second answer.', at);
    await ui.pty.waitFor(/New session [0-9a-f-]{36}\. The previous one/, at);
    expect(ui.fake.requests).toHaveLength(2);
    expect(lastText(ui, 1)).toBe('and then this');
  });
});
