import { describe, expect, it } from 'vitest';
import { describeActivity, summarizeResult } from '../../src/cli/output/tool-activity.js';
import { run, tempDir, writeTree } from '../tools/helpers.js';

/** Runs a real built-in tool and returns the line text mode and the UI show for it. */
async function line(workspace: string, name: string, input: Record<string, unknown>) {
  const result = await run(name, input, { workspace });
  const call = { id: 'c', name, input };
  const { summary, tail } = summarizeResult(call, { content: result.content, is_error: result.isError });
  return { text: `${describeActivity(call)} ⎿ ${summary}`, tail };
}

describe('tool activity lines say what a call did', () => {
  it('grep names the pattern and counts matches and files', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'src/a.ts': 'TODO one\nTODO two\n', 'src/b.ts': 'x\nTODO three\n', 'README.md': 'TODO not in src' });
    expect((await line(ws, 'grep', { pattern: 'TODO', path: 'src' })).text).toBe('grep "TODO" in src ⎿ 3 matches in 2 files');
    expect((await line(ws, 'grep', { pattern: 'nothing' })).text).toBe('grep "nothing" ⎿ no matches');
  });

  it('bash shows the command, the exit code, the line count and on failure the last lines', async () => {
    const ws = await tempDir();
    const ok = await line(ws, 'bash', { command: 'printf "a\\nb\\n"' });
    expect(ok).toEqual({ text: 'bash printf "a\\nb\\n" ⎿ exit 0 · 2 lines', tail: [] });
    const failed = await line(ws, 'bash', { command: 'seq 1 42; exit 1' });
    expect(failed.text).toBe('bash seq 1 42; exit 1 ⎿ exit 1 · 42 lines');
    expect(failed.tail).toEqual(['38', '39', '40', '41', '42']);
  });

  it('read_file counts lines, edit_file the lines added and removed', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'package.json': `${'{}\n'.repeat(14)}`, 'src/a.ts': 'one\ntwo\n' });
    expect((await line(ws, 'read_file', { path: 'package.json' })).text).toBe('read_file package.json ⎿ 14 lines');
    const edit = await line(ws, 'edit_file', { path: 'src/a.ts', old_string: 'two', new_string: 'two\n2a\n2b\n2c' });
    expect(edit.text).toBe('edit_file src/a.ts ⎿ +3 −0');
    const swap = await line(ws, 'edit_file', { path: 'src/a.ts', old_string: 'one\ntwo', new_string: 'ONE\nTWO\nTHREE' });
    expect(swap.text).toBe('edit_file src/a.ts ⎿ +3 −2');
  });

  it('an error shows its first line', async () => {
    const ws = await tempDir();
    expect((await line(ws, 'read_file', { path: 'missing.txt' })).text).toMatch(/^read_file missing\.txt ⎿ .*missing\.txt/);
  });
});
