import { describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi } from './ui-harness.js';

closeUisAfterEach();

const listDir = (n: number): FakeResponse => ({
  content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'list_dir', input: { path: '.' } }],
});

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('the terminal UI as a daily driver: no surprise budgets', () => {
  it('a task of 20 tool calls in 21 model rounds finishes with the default flags (no turn or tool limit unless given)', {
    timeout: 90_000,
  }, async () => {
    const ui = await startUi([...Array.from({ length: 20 }, (_, i) => listDir(i + 1)), { text: 'All twenty looked at.' }]);
    ui.pty.type('look twenty times\r');
    const at = await ui.pty.waitFor('All twenty looked at.', ui.at);
    expect(ui.fake.requests).toHaveLength(21);
    expect(ui.pty.screen().slice(ui.at)).not.toContain('Stopped');

    ui.pty.type('/config\r');
    const shown = await ui.pty.waitFor(/Limits per task: turns no limit · tool calls no limit · timeout no limit/, at);

    // The cost says where its price comes from, and counts the cache tokens.
    ui.pty.type('/cost\r');
    await ui.pty.waitFor(/cache: [\d.k]+ written · [\d.k]+ read · \$\d+\.\d{4}/, shown);
    await ui.pty.waitFor(/Price of claude-sonnet-5-5: \$2 \/ \$10 per million tokens in\/out \(published:/, shown);
  });

  it('a dialog left open for 5 s with --timeout 2s does not end the task: waiting for the person never counts', {
    timeout: 120_000,
  }, async () => {
    const ui = await startUi(
      // touch, not echo: echo is read-only and runs without a dialog.
      [{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'touch waited' } }] }, { text: 'Ran it after all.' }],
      { flags: '--timeout 2s', waitMs: 60_000 },
    );
    ui.pty.type('run it\r');
    let at = await ui.pty.waitFor('Run bash?', ui.at);
    // More than twice the task's time: the deadline would have fired had the dialog counted.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(ui.pty.screen().slice(at)).not.toMatch(/ran out of time|Stopped/);
    ui.pty.type('1');
    at = await ui.pty.waitFor('Ran it after all.', at);
    expect(ui.pty.screen().slice(ui.at)).not.toMatch(/ran out of time/);

    // The limit given by the flag is the session's, and /config changes it.
    ui.pty.type('/config turns 5\r');
    await ui.pty.waitFor(/turns 5 · tool calls no limit · timeout 2s/, at);
  });

  it('/cost after --resume counts the whole session, cache tokens too', { timeout: 90_000 }, async () => {
    const usage = { input_tokens: 1200, output_tokens: 300, cache_creation_input_tokens: 4000, cache_read_input_tokens: 0 };
    const first = await startUi([{ text: 'First.', usage }]);
    const { workspace, home } = first;
    first.pty.type('one\r');
    await first.pty.waitFor('First.', first.at);
    const id = /session ([0-9a-f]{8})/.exec(first.pty.screen())![1]!;
    // Leaves as a person does (Ctrl-D), so the session's lock is let go.
    first.pty.type('\x04');
    expect(await first.pty.exited).toBe(0);
    await first.fake.close();

    const ui = await startUi([{ text: 'Second.' }], { flags: `--resume ${id}`, workspace, home });
    ui.pty.type('/cost\r');
    await ui.pty.waitFor(/↑ 1\.2k input · ↓ 300 output tokens · cache: 4(\.0)?k written/, ui.at);
  });
});
