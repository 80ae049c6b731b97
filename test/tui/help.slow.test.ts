import { describe, expect, it } from 'vitest';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi } from './ui-harness.js';

/**
 * Issue 39: /help wrapped its descriptions to column 0. The names now stand in a column and each
 * description wraps at the description column, at 80 columns and narrower.
 */

closeUisAfterEach();

const CLEAR = 'clear the screen and start a new session (the current one stays recorded)';

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('/help in the terminal UI', () => {
  for (const cols of [80, 50]) {
    it(`at ${cols} columns: names in a column, descriptions wrapped with a hanging indent at the description column`, {
      timeout: 60_000,
    }, async () => {
      const ui = await startUi([], { cols });
      ui.pty.type('/help\r');
      const from = await ui.pty.waitFor('Commands:', ui.at);
      await ui.pty.waitFor(/continues the\s+session/, from);
      const shown = ui.pty
        .screen()
        .slice(from - 1)
        .split('\n');
      // The help ends where the input box is drawn again.
      const help = shown.slice(
        0,
        shown.findIndex((line) => line.startsWith('╭')),
      );
      const commands = help.slice(1, help.indexOf('Keys:'));
      // Nothing past the width, nothing but the two headings at column 0.
      for (const line of help) expect(line.length).toBeLessThan(cols);
      expect(help.filter((line) => !line.startsWith(' '))).toEqual(['Commands:', 'Keys:']);

      // The description column, from /help's own row; /clear's description wraps under it, not to column 0.
      const column = commands.find((line) => line.startsWith('  /help'))!.indexOf('list the commands');
      expect(column).toBeGreaterThan('  /help'.length);
      const clear = commands.findIndex((line) => line.startsWith('  /clear'));
      const next = commands.findIndex((line, i) => i > clear && line.startsWith('  /'));
      const rows = commands.slice(clear, next);
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.map((line) => line.slice(0, column).trim())).toEqual(['/clear', ...rows.slice(1).map(() => '')]);
      expect(rows.map((line) => line.slice(column)).join(' ')).toBe(CLEAR);
      for (const line of rows.slice(1)) expect(line[column]).not.toBe(' ');
    });
  }
});
