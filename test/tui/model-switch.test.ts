import { describe, expect, it } from 'vitest';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi, type Ui } from './ui-harness.js';

/**
 * Issue 39: `/model <id>` and `/config model <id>` made the client from process.env, from which the
 * run had already withheld the API key: "ANTHROPIC_API_KEY is not set". The next task now runs on
 * the model named, with the key the run started with.
 */

closeUisAfterEach();

const modelOf = (u: Ui, request: number) => (u.fake.requests[request]!.body as { model: string }).model;

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('switching the model in the terminal UI', () => {
  it('/model claude-haiku-4-5 and /config model sonnet switch the model of the next task', { timeout: 90_000 }, async () => {
    const ui = await startUi([{ text: 'First answer.' }, { text: 'Haiku answer.' }, { text: 'Sonnet answer.' }]);
    ui.pty.type('hello\r');
    let at = await ui.pty.waitFor('First answer.', ui.at);

    ui.pty.type('/model claude-haiku-4-5\r');
    at = await ui.pty.waitFor('Model: claude-haiku-4-5 from the next task on.', at);
    ui.pty.type('again\r');
    at = await ui.pty.waitFor('Haiku answer.', at);

    ui.pty.type('/config model sonnet\r');
    at = await ui.pty.waitFor('Model: claude-sonnet-5-5 from the next task on.', at);
    ui.pty.type('once more\r');
    await ui.pty.waitFor('Sonnet answer.', at);

    expect(ui.pty.screen()).not.toContain('ANTHROPIC_API_KEY is not set');
    expect([modelOf(ui, 0), modelOf(ui, 1), modelOf(ui, 2)]).toEqual([expect.any(String), 'claude-haiku-4-5', 'claude-sonnet-5-5']);
  });
});
