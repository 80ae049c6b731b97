import { describe, expect, it } from 'vitest';
import { twoColumns } from '../../src/terminal/two-columns.js';

const rows: Array<[string, string]> = [
  ['/help', 'list the commands and keys'],
  ['/resume [session-id]', 'continue a recorded session of this workspace (without an id: list them)'],
  ['/permissions [allow|ask|deny <rule> | remove <rule>]', 'the mode and the rules in force'],
];

describe('two columns', () => {
  it('wraps each description at the description column, never back to column 0', () => {
    const lines = twoColumns(rows, 60);
    expect(lines).toEqual([
      '  /help                 list the commands and keys',
      '  /resume [session-id]  continue a recorded session of this',
      '                        workspace (without an id: list them)',
      // Too wide for the column: the name on its own line, the description under the column.
      '  /permissions [allow|ask|deny <rule> | remove <rule>]',
      '                        the mode and the rules in force',
    ]);
  });

  it('keeps every line within a narrow width, the name column at most 40 % of it', () => {
    const lines = twoColumns(rows, 40);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines).toEqual([
      '  /help  list the commands and keys',
      '  /resume [session-id]',
      '         continue a recorded session of',
      '         this workspace (without an id:',
      '         list them)',
      '  /permissions [allow|ask|deny <rule>',
      '    | remove <rule>]',
      '         the mode and the rules in force',
    ]);
  });

  it('cuts a word longer than the description column', () => {
    expect(twoColumns([['x', 'a'.repeat(25)]], 20)).toEqual(['  x  aaaaaaaaaaaaaaa', '     aaaaaaaaaa']);
  });
});
