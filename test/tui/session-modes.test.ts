import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi } from './ui-harness.js';

closeUisAfterEach();

const SHIFT_TAB = '\x1b[Z';
const writes = (...names: string[]): FakeResponse => ({
  content: names.map((name, i) => ({
    type: 'tool_use',
    id: `toolu_${name.replace(/\W/g, '')}_${i}`,
    name: 'write_file',
    input: { path: name, content: `${name}\n` },
  })),
});

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('permission modes in the session', () => {
  it('Shift-Tab turns on accept edits (the status line says so), then a 3-file edit asks nothing; plan mode is next', {
    timeout: 90_000,
  }, async () => {
    const ui = await startUi([writes('a.txt', 'b.txt', 'c.txt'), { text: 'Three files written.' }]);
    let at = await ui.pty.waitFor('default mode (shift-tab)', 0);
    ui.pty.type(SHIFT_TAB);
    at = await ui.pty.waitFor('⏵⏵ accept edits on', at);
    ui.pty.type('write three files\r');
    at = await ui.pty.waitFor('Three files written.', at);
    expect(ui.pty.screen().slice(ui.at)).not.toMatch(/Write [abc]\.txt/);
    for (const name of ['a.txt', 'b.txt', 'c.txt']) expect(readFileSync(path.join(ui.workspace, name), 'utf8')).toBe(`${name}\n`);

    ui.pty.type(SHIFT_TAB);
    at = await ui.pty.waitFor('⏸ plan mode', at);
    ui.pty.type('/permissions\r');
    await ui.pty.waitFor('Permission mode: plan (from this session', at);
  });

  it('"Yes, and don\'t ask again" on a file edit turns on accept edits for the session: the next edits run without asking', {
    timeout: 90_000,
  }, async () => {
    const ui = await startUi([writes('one.txt'), writes('two.txt', 'three.txt'), { text: 'All written.' }]);
    ui.pty.type('write files\r');
    let at = await ui.pty.waitFor(/2\. Yes, and don't ask again for file edits this session \(accept edits mode/, ui.at);
    ui.pty.type('2');
    at = await ui.pty.waitFor('All written.', at);
    // One dialog in all: the two later writes ran under accept edits.
    expect(ui.pty.screen().slice(ui.at)).toMatch(/Write one\.txt/);
    expect(ui.pty.screen().slice(ui.at)).not.toMatch(/Write (two|three)\.txt/);
    expect(existsSync(path.join(ui.workspace, 'three.txt'))).toBe(true);
    await ui.pty.waitFor('⏵⏵ accept edits on', at);
    // Accept edits, not a rule: nothing was saved for the file.
    expect(existsSync(path.join(ui.workspace, '.xagent', 'settings.local.json'))).toBe(false);
  });

  it('/permissions adds and removes rules for the session', { timeout: 90_000 }, async () => {
    const ui = await startUi([
      // touch, not echo: echo is read-only and would run without the rule.
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'touch hi' } }] },
      { text: 'Ran echo.' },
    ]);
    writeFileSync(path.join(ui.workspace, 'x.txt'), 'x');
    ui.pty.type('/permissions deny bash(rm*)\r');
    let at = await ui.pty.waitFor('Added deny bash(rm*) for this session', ui.at);
    ui.pty.type('/permissions allow bash(touch*)\r');
    at = await ui.pty.waitFor('Added allow bash(touch*)', at);
    ui.pty.type('/permissions\r');
    at = await ui.pty.waitFor(/deny\s+bash\(rm\*\)\s+\/permissions \(this session\)/, at);
    ui.pty.type('/permissions remove bash(rm*)\r');
    at = await ui.pty.waitFor('Removed deny bash(rm*)', at);
    ui.pty.type('/permissions\r');
    at = await ui.pty.waitFor('Permission mode: default', at);
    await ui.pty.waitFor('Shift-Tab cycles modes', at);
    expect(ui.pty.screen().slice(at)).not.toContain('bash(rm*)');

    // The added allow rule lets the command run without a dialog.
    ui.pty.type('say hi\r');
    at = await ui.pty.waitFor('Ran echo.', at);
    expect(ui.pty.screen().slice(ui.at)).not.toContain('Run bash?');
  });
});
