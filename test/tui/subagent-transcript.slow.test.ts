import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi, type Ui } from './ui-harness.js';

/**
 * Ctrl-O on a subagent opens its transcript, as Claude Code's Ctrl-O does: the prompt it was given,
 * its tool calls with short results, its text and answer, scrollable; Esc or Ctrl-O closes it.
 * A real pseudo-terminal of 50 rows, the built CLI and the fake API (answered in order: the main
 * agent, the child twice, the main agent). The child's answer is never on the main screen, so
 * seeing it proves the view.
 */
const CTRL_O = '\x0f';
const ESC = '\x1b';
const END = '\x1b[F';
/** What the input says while the view is open. */
const READING = 'reading the transcript above';

closeUisAfterEach({ allowRejected: true });

/** The main agent delegates, the child reads notes.txt (answered after `readDelayMs`) and answers `answer`, the main agent sums up. */
function delegation(answer: string, answerDelayMs: number): FakeResponse[] {
  return [
    {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_task',
          name: 'task',
          input: { description: 'Read the notes', prompt: 'Read notes.txt and say what it holds', subagent_type: 'general-purpose' },
        },
      ],
    },
    { content: [{ type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'notes.txt' } }] },
    { text: answer, delay_ms: answerDelayMs },
    { text: 'Your notes are about milk.' },
  ];
}

/** `key` closes the view: the input says so no longer and takes keys again (while the view is open, they scroll it). */
async function closesWith(ui: Ui, key: string) {
  const open = ui.pty.screen().lastIndexOf('Esc or Ctrl-O closes');
  expect(ui.pty.screen().slice(open)).toContain(READING);
  const from = ui.pty.screen().length;
  ui.pty.type(key);
  // The empty input, active again (the cursor and nothing else in its box); a letter typed with the key would make it Alt-letter.
  const frame = await ui.pty.waitFor(/│ › +│/, from);
  ui.pty.type('xyz');
  await ui.pty.waitFor('› xyz', frame);
}

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('Ctrl-O on a subagent', () => {
  it('opens the running subagent transcript, which grows to its answer; Esc gives the input back', { timeout: 90_000 }, async () => {
    const ui = await startUi(delegation('The notes say: buy milk.', 4_000));
    writeFileSync(path.join(ui.workspace, 'notes.txt'), 'buy milk\n');
    let at = ui.at;
    ui.pty.type('what do my notes say?\r');
    at = await ui.pty.waitFor(/⎿ 1 tool use · [\d.k]+ tokens · [\d.]+s · read_file notes\.txt/, at);
    ui.pty.type(CTRL_O);
    // The view, from the top: the child's own prompt (not the person's), its call and its short result.
    at = await ui.pty.waitFor('⏺ general-purpose(Read the notes) · transcript', at);
    at = await ui.pty.waitFor('› Read notes.txt and say what it holds', at);
    at = await ui.pty.waitFor(/⏺ read_file notes\.txt[\s│]+⎿ 1 line/, at);
    // Still open when the child answers: its answer and how it ended come into the view.
    at = await ui.pty.waitFor('The notes say: buy milk.', at);
    at = await ui.pty.waitFor(/⎿ Done \(2 turns · 1 tool call · [\d.]+s\)/, at);
    await ui.pty.waitFor('Your notes are about milk.', at);
    await closesWith(ui, ESC);
  });

  it('on the last tool line after the subagent is done, shows a long transcript that scrolls to its end; Ctrl-O closes', {
    timeout: 90_000,
  }, async () => {
    const details = Array.from({ length: 80 }, (_, i) => `detail ${i + 1}`).join('\n');
    const ui = await startUi(delegation(`The notes say: buy milk.\n${details}\nThat is all.`, 0));
    writeFileSync(path.join(ui.workspace, 'notes.txt'), 'buy milk\n');
    let at = ui.at;
    ui.pty.type('what do my notes say?\r');
    at = await ui.pty.waitFor(/⎿ Done \(1 tool use · [\d.k]+ tokens · [\d.]+s\)/, at);
    at = await ui.pty.waitFor('Your notes are about milk.', at);
    expect(ui.pty.screen()).not.toContain('The notes say');
    ui.pty.type(CTRL_O);
    // The top of a transcript longer than the screen: the prompt and the answer's first line, not its end.
    const header = await ui.pty.waitFor(/⏺ general-purpose\(Read the notes\) · transcript · lines 1–\d+ of 8\d/, at);
    at = await ui.pty.waitFor('Esc or Ctrl-O closes', header);
    const frame = ui.pty.screen().slice(header, at);
    expect(frame).toContain('› Read notes.txt and say what it holds');
    expect(frame).toContain('The notes say: buy milk.');
    expect(frame).not.toContain('That is all.');
    ui.pty.type(END);
    at = await ui.pty.waitFor('That is all.', at);
    at = await ui.pty.waitFor(/⎿ Done \(2 turns · 1 tool call · [\d.]+s\)/, at);
    await closesWith(ui, CTRL_O);
  });
});
