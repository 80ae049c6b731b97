import { describe, expect, it } from 'vitest';
import { appliedChange, changeWords, editedText, textDiff } from '../../src/terminal/edit-diff.js';

const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const shown = (diff: ReturnType<typeof textDiff>) =>
  diff.lines.map((l) => (l.kind === 'gap' ? '…' : `${l.line}${{ add: '+', del: '-', same: ' ' }[l.kind]}${l.text}`));

describe('the diff of a file change', () => {
  it('keeps 3 lines of context around each change, numbered as in the file, with a gap between hunks', () => {
    const before = numbered(20);
    const after = before.replace('line 5\n', 'LINE 5\n').replace('line 15\n', 'LINE 15\nextra\n');
    const diff = textDiff(before, after);
    expect(shown(diff)).toEqual([
      ...['2 line 2', '3 line 3', '4 line 4', '5-line 5', '5+LINE 5', '6 line 6', '7 line 7', '8 line 8'],
      '…',
      ...['12 line 12', '13 line 13', '14 line 14', '15-line 15', '15+LINE 15', '16+extra', '17 line 16', '18 line 17', '19 line 18'],
    ]);
    expect([diff.added, diff.removed]).toEqual([3, 2]);
  });

  it('reads CRLF lines without their \\r and makes control characters visible', () => {
    expect(shown(textDiff('one\r\ntwo\r\n', 'ONE\x1b[2J\r\ntwo\r\n'))).toEqual(['1-one', '1+ONE\\x1b[2J', '2 two']);
  });

  it('gives up searching a whole-file rewrite and shows every line removed and added', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n');
    const diff = textDiff(before, after);
    expect([diff.added, diff.removed]).toEqual([3000, 3000]);
  });

  it('applies an edit as edit_file does: the first occurrence, or all; `$&` stays literal; null when absent', () => {
    expect(editedText('a b a', { old_string: 'a', new_string: '$&x' })).toBe('$&x b a');
    expect(editedText('a b a', { old_string: 'a', new_string: 'x', replace_all: true })).toBe('x b x');
    expect(editedText('a b a', { old_string: 'z', new_string: 'x' })).toBeNull();
  });

  it('an applied edit is the file before and after; without them, its own text numbered from the line its result names', () => {
    const call = { id: 't', name: 'edit_file', input: { path: 'f.ts', old_string: 'line 9', new_string: 'nine' } };
    const before = numbered(12);
    const after = before.replace('line 9', 'nine');
    expect(shown(appliedChange({ call, resultContent: '', before, after })!)).toEqual([
      ...['6 line 6', '7 line 7', '8 line 8', '9-line 9', '9+nine', '10 line 10', '11 line 11', '12 line 12'],
    ]);
    const fromResult = appliedChange({ call, resultContent: 'Edited f.ts: replaced 1 occurrence (line 9).', before: null, after: null });
    expect(shown(fromResult!)).toEqual(['9-line 9', '9+nine']);
    // A write_file over a file is a change like any other; a new file has nothing to compare with; other tools have no diff.
    expect(shown(appliedChange({ call: { ...call, name: 'write_file' }, resultContent: '', before: 'a\n', after: 'b\n' })!)).toEqual([
      '1-a',
      '1+b',
    ]);
    expect(appliedChange({ call: { ...call, name: 'write_file' }, resultContent: '', before: null, after: 'x' })).toBeNull();
    expect(appliedChange({ call: { ...call, name: 'bash' }, resultContent: '', before, after })).toBeNull();
  });

  it("says the change in Claude Code's words", () => {
    expect([changeWords(1, 1), changeWords(3, 0), changeWords(0, 2)]).toEqual(['1 addition and 1 removal', '3 additions', '2 removals']);
  });
});
