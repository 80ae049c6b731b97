import { describe, expect, it } from 'vitest';
import { decisionFor } from '../../src/terminal/answer.js';
import { dialogView } from '../../src/terminal/dialog-view.js';
import { tempDir, writeTree } from '../tools/helpers.js';

const pending = { behavior: 'ask' as const, decidedBy: 'default: edit_file asks' };

describe('the permission dialog view', () => {
  it('shows an edit as the change to the file, numbered as in the file, with 3 lines of context on each side', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'src/a.ts': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n' });
    const view = dialogView(
      { id: 'c', name: 'edit_file', input: { path: 'src/a.ts', old_string: 'three\nfour', new_string: 'three\n4\n5' } },
      pending,
      ws,
    );
    expect(view.title).toBe('Edit src/a.ts?');
    expect(view.lines).toEqual([
      { kind: 'same', line: 1, text: 'one' },
      { kind: 'same', line: 2, text: 'two' },
      { kind: 'same', line: 3, text: 'three' },
      { kind: 'del', line: 4, text: 'four' },
      { kind: 'add', line: 4, text: '4' },
      { kind: 'add', line: 5, text: '5' },
      { kind: 'same', line: 6, text: 'five' },
      { kind: 'same', line: 7, text: 'six' },
      { kind: 'same', line: 8, text: 'seven' },
    ]);
    expect(view.alwaysRules).toEqual(['edit_file(src/a.ts)']);
    expect(view.settingsFile).toBe('.xagent/settings.local.json');
  });

  it('shows the old and new text alone when the file does not hold the old text (the tool will say so)', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'src/a.ts': 'one\n' });
    const view = dialogView(
      { id: 'c', name: 'edit_file', input: { path: 'src/a.ts', old_string: 'x\ny', new_string: 'x\nz' } },
      pending,
      ws,
    );
    expect(view.lines).toEqual([
      { kind: 'same', line: 1, text: 'x' },
      { kind: 'del', line: 2, text: 'y' },
      { kind: 'add', line: 2, text: 'z' },
    ]);
  });

  it('shows the full bash command, control characters made visible', () => {
    const view = dialogView(
      { id: 'c', name: 'bash', input: { command: 'npm test\u001b[2K && echo ok' } },
      { behavior: 'ask', decidedBy: 'default: bash asks' },
      '/ws',
    );
    expect(view.lines).toEqual([{ kind: 'command', text: 'npm test\\x1b[2K && echo ok' }]);
  });

  it('answer 3 is a denial that goes back to the model with the instructions, not a stop', () => {
    const { decision } = decisionFor(
      { kind: 'feedback', text: 'use pnpm' },
      { call: { id: 'c', name: 'bash', input: { command: 'npm i' } }, pending, workspace: '/ws' },
    );
    expect(decision).toEqual({
      behavior: 'deny',
      continueWithFeedback: true,
      decidedBy: 'user: no, with instructions (asked because default: edit_file asks)',
      message: 'The user declined this bash call and said what to do instead: use pnpm',
    });
  });
});
