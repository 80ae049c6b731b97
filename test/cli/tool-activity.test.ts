import { describe, expect, it } from 'vitest';
import { describeActivity, summarizeResult } from '../../src/terminal/tool-activity.js';
import { run, tempDir, writeTree } from '../tools/helpers.js';

/** Runs a real built-in tool and returns the line text mode and the UI show for it. */
async function line(workspace: string, name: string, input: Record<string, unknown>) {
  const result = await run(name, input, { workspace });
  const call = { id: 'c', name, input };
  const { summary, detail } = summarizeResult(call, { content: result.content, is_error: result.isError });
  return { text: `${describeActivity(call)} ⎿ ${summary}`, detail };
}

describe('tool activity lines say what a call did', () => {
  it('grep names the pattern and counts matches and files', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'src/a.ts': 'TODO one\nTODO two\n', 'src/b.ts': 'x\nTODO three\n', 'README.md': 'TODO not in src' });
    expect((await line(ws, 'grep', { pattern: 'TODO', path: 'src' })).text).toBe('grep "TODO" in src ⎿ 3 matches in 2 files');
    expect((await line(ws, 'grep', { pattern: 'nothing' })).text).toBe('grep "nothing" ⎿ no matches');
  });

  it('bash shows the command, the exit code, the line count and on failure its first and last lines', async () => {
    const ws = await tempDir();
    const ok = await line(ws, 'bash', { command: 'printf "a\\nb\\n"' });
    expect(ok).toEqual({ text: 'bash printf "a\\nb\\n" ⎿ exit 0 · 2 lines', detail: [] });
    const failed = await line(ws, 'bash', { command: 'seq 1 42; exit 1' });
    expect(failed.text).toBe('bash seq 1 42; exit 1 ⎿ exit 1 · 42 lines');
    expect(failed.detail).toEqual(['1', '2', '…', '38', '39', '40', '41', '42']);
  });

  it('a failing test run shows the assertion that failed, not only the summary at its end', async () => {
    const ws = await tempDir();
    const report = [
      'RUN v4',
      ...Array.from({ length: 30 }, (_, i) => `  ok ${i}`),
      'FAIL test/sum.test.ts > adds',
      'AssertionError: expected 3 to be 4',
      '  at sum.test.ts:5:20',
      ...Array.from({ length: 30 }, (_, i) => `  noise ${i}`),
      'Tests 1 failed | 30 passed',
    ];
    const failed = await line(ws, 'bash', { command: `printf '%s\\n' ${report.map((l) => `'${l}'`).join(' ')}; exit 1` });
    expect(failed.detail).toContain('AssertionError: expected 3 to be 4');
    expect(failed.detail).toContain('  at sum.test.ts:5:20');
    expect(failed.detail.slice(0, 2)).toEqual(['RUN v4', '  ok 0']);
    expect(failed.detail.at(-1)).toBe('Tests 1 failed | 30 passed');
    expect(failed.detail.length).toBeLessThan(20);
  });

  it('an MCP result shows a readable first line and the server and tool by name', () => {
    const call = { id: 'c', name: 'mcp__github__search_issues', input: { q: 'bug' } };
    expect(describeActivity(call)).toBe('github · search_issues {"q":"bug"}');
    const json = summarizeResult(call, { content: JSON.stringify({ total_count: 2, items: [1, 2] }, null, 2), is_error: false });
    expect(json.summary).toBe('2 fields: total_count, items');
    expect(summarizeResult(call, { content: '[1,2,3]', is_error: false }).summary).toBe('3 items');
    expect(summarizeResult(call, { content: '\nFound two issues\n#1 crash\n#2 hang', is_error: false }).summary).toBe(
      'Found two issues · 3 lines',
    );
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
