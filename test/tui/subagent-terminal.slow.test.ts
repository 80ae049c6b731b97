import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi } from './ui-harness.js';

/**
 * A subagent in the terminal UI as Claude Code shows one: `⏺ general-purpose(Read the notes)` with
 * its tool uses, tokens and time while it runs, then `⎿ Done (1 tool use · … tokens · …s)`.
 * A real pseudo-terminal, the built CLI and the fake API (answered in order: the main agent, the
 * child twice, the main agent).
 */
closeUisAfterEach({ allowRejected: true });

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('a subagent in the terminal', () => {
  it('shows name(description) with its progress while it runs, and Done (N tool uses · tokens · time) after', {
    timeout: 90_000,
  }, async () => {
    const ui = await startUi([
      {
        content: [
          { type: 'text', text: 'Delegating.' },
          {
            type: 'tool_use',
            id: 'toolu_task',
            name: 'task',
            input: { description: 'Read the notes', prompt: 'Read notes.txt and say what it holds', subagent_type: 'general-purpose' },
          },
        ],
      },
      { content: [{ type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'notes.txt' } }], delay_ms: 800 },
      { text: 'The notes say: buy milk.', delay_ms: 2_500, usage: { input_tokens: 1200, output_tokens: 34 } },
      { text: 'Your notes are about milk.' },
    ]);
    writeFileSync(path.join(ui.workspace, 'notes.txt'), 'buy milk\n');
    let at = ui.at;
    ui.pty.type('what do my notes say?\r');
    // Running: the title, then its progress with the child's last tool.
    at = await ui.pty.waitFor('⏺ general-purpose(Read the notes)', at);
    at = await ui.pty.waitFor(/⎿ 1 tool use · [\d.k]+ tokens · [\d.]+s · read_file notes\.txt/, at);
    // Done: Claude Code's summary line under the same title, and the main agent's answer after it.
    at = await ui.pty.waitFor(/⎿ Done \(1 tool use · [\d.k]+ tokens · [\d.]+s\)/, at);
    await ui.pty.waitFor('Your notes are about milk.', at);
    const screen = ui.pty.screen();
    expect(screen).not.toContain('{"description"');
    expect(screen).not.toContain('call_model.requesting');
  });
});
