import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi, type Ui } from './ui-harness.js';

/**
 * Issue 39: an applied edit left only `+1 −1` in the scrollback, and the dialog's diff had no
 * context. Both now show the change with 3 numbered lines of context, as Claude Code does.
 */

closeUisAfterEach();

const FILE = `${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const edit = (old_string: string, new_string: string) => ({
  content: [{ type: 'tool_use', name: 'edit_file', input: { path: 'f.ts', old_string, new_string } }],
});

/** The screen between two offsets as lines, without a dialog's border and trailing blanks. */
const linesBetween = (u: Ui, from: number, to?: number) =>
  u.pty
    .screen()
    .slice(from, to)
    .split('\n')
    .map((line) => line.replace(/^│ ?/, '').replace(/\s*│$/, '').trimEnd());

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('an edit in the terminal UI', () => {
  it('the dialog shows the change with 3 lines of context; once applied, the scrollback keeps it under "Updated f.ts with …"', {
    timeout: 90_000,
  }, async () => {
    const workspace = tempDir('xagent-ws-');
    writeFileSync(path.join(workspace, 'f.ts'), FILE);
    const ui = await startUi([edit('line 10\n', 'line ten\nline 10.5\n'), { text: 'Edited.' }], { workspace });
    ui.pty.type('change line 10\r');
    const asked = await ui.pty.waitFor('Edit f.ts?', ui.at);
    let at = await ui.pty.waitFor('1. Yes', asked);
    // Three lines before and after, numbered as in the file; nothing further away.
    const diff = [
      '  7   line 7',
      '  8   line 8',
      '  9   line 9',
      ' 10 - line 10',
      ' 10 + line ten',
      ' 11 + line 10.5',
      ' 12   line 11',
      ' 13   line 12',
      ' 14   line 13',
    ];
    const dialog = linesBetween(ui, asked, at);
    expect(dialog.slice(dialog.indexOf(diff[0]!), dialog.indexOf(diff[0]!) + diff.length)).toEqual(diff);
    expect(dialog.join('\n')).not.toMatch(/line 6\b|line 14\b/);

    ui.pty.type('1');
    at = await ui.pty.waitFor('Edited.', at);
    expect(readFileSync(path.join(workspace, 'f.ts'), 'utf8')).toContain('line ten\nline 10.5\nline 11');
    const scrollback = linesBetween(ui, ui.pty.screen().lastIndexOf('⏺ edit_file f.ts'), at);
    expect(scrollback[1]).toBe('  ⎿ Updated f.ts with 2 additions and 1 removal');
    expect(scrollback.slice(2, 2 + diff.length)).toEqual(diff.map((line) => `    ${line}`));
  });
});
