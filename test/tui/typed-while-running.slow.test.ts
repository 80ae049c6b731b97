import { describe, expect, it } from 'vitest';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi, type Ui } from './ui-harness.js';

/**
 * What a person types while a task runs is not lost: a task waits its turn and starts when the
 * running one ends (as in Claude Code), and a command that cannot run mid-task (/clear) runs then.
 * Before, both were refused ("A task is running", "/clear waits until the running task ends"), so a
 * prompt typed as the answer streamed in, or in the moment the task wrote its session, was dropped.
 */

closeUisAfterEach({ allowRejected: true });

const userText = (u: Ui, request: number) =>
  JSON.stringify((u.fake.requests[request]?.body as { messages: unknown[] } | undefined)?.messages.at(-1) ?? null);

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('typing while a task runs', () => {
  it('queues a second and a third task behind the running one; they run in order', { timeout: 90_000 }, async () => {
    // The first answer takes about 3 s (three deltas 1 s apart): time to type two more tasks.
    const ui = await startUi([
      { text: 'first answer done', eventDelayMs: 1000 },
      { text: 'second answer done' },
      { text: 'third answer done' },
    ]);
    ui.pty.type('one\r');
    let at = await ui.pty.waitFor('Esc to interrupt', ui.at);
    ui.pty.type('two\r');
    at = await ui.pty.waitFor('Queued (1)', at);
    ui.pty.type('three\r');
    await ui.pty.waitFor('Queued (2)', at);
    await ui.pty.waitFor('third answer done', ui.at);
    expect(ui.fake.requests).toHaveLength(3);
    expect([userText(ui, 0), userText(ui, 1), userText(ui, 2)].map((text) => /"(one|two|three)"/.exec(text)?.[1])).toEqual([
      'one',
      'two',
      'three',
    ]);
  });

  it('runs /clear when the running task ends instead of refusing it', { timeout: 90_000 }, async () => {
    const ui = await startUi([{ text: 'slow answer done', eventDelayMs: 1000 }, { text: 'after clear' }]);
    ui.pty.type('one\r');
    const at = await ui.pty.waitFor('Esc to interrupt', ui.at);
    ui.pty.type('/clear\r');
    await ui.pty.waitFor('/clear runs when the running task ends', at);
    // Typed behind /clear while the first task still runs: it starts only once /clear has made the new session.
    ui.pty.type('two\r');
    await ui.pty.waitFor('slow answer done', at);
    await ui.pty.waitFor('after clear', at);
    // A new session: the second request carries only the second task.
    const second = ui.fake.requests[1]?.body as { messages: unknown[] };
    expect(second.messages).toHaveLength(1);
  });
});
