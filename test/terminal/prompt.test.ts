import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import { createTerminalPrompt } from '../../src/terminal/prompt.js';
import { bash, call } from '../permissions/helpers.js';

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'xagent-prompt-'));
});
afterEach(async () => rm(workspace, { recursive: true, force: true }));

const pending: PermissionDecision = { behavior: 'ask', decidedBy: 'default: bash asks' };

/** Runs one prompt, typing each answer once the question before it has been shown. */
async function ask(c: ToolCall, answers: string[], signal = new AbortController().signal, end = false) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  let questions = 0;
  output.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    const asked = shown.split('Allow? ').length - 1;
    while (questions < asked) {
      const answer = answers[questions++];
      if (answer !== undefined) input.write(`${answer}\n`);
      else if (end) input.end();
    }
  });
  const prompt = createTerminalPrompt({ input, output, workspace });
  const outcome = await prompt({ call: c, pending, signal });
  return { ...outcome, shown };
}

const settings = async () => JSON.parse(await readFile(path.join(workspace, '.xagent', 'settings.local.json'), 'utf8')) as unknown;

describe('the terminal prompt', () => {
  it('shows the full command and allows once on "y"', async () => {
    const { decision, savedRules, shown } = await ask(bash('npm test && rm -rf ~'), ['y']);
    expect(shown).toContain('xagent wants to run bash (default: bash asks)');
    expect(shown).toContain('$ npm test && rm -rf ~');
    expect(decision).toEqual({ behavior: 'allow', decidedBy: 'user: yes (asked because default: bash asks)' });
    expect(savedRules).toEqual([]);
  });

  it('denies on "no" and says the user decided', async () => {
    const { decision } = await ask(bash('npm test'), ['no']);
    expect(decision.behavior).toBe('deny');
    expect(decision.decidedBy).toBe('user: no (asked because default: bash asks)');
    expect(decision.message).toContain('bash');
  });

  it('on "always" saves one prefix rule per command into .xagent/settings.local.json', async () => {
    const { decision, savedRules, shown } = await ask(bash('npm test -- --watch && npm run lint'), ['a']);
    expect(shown).toContain('[a]lways (saves "bash(npm test*)", "bash(npm run lint*)" to .xagent/settings.local.json)');
    expect(decision.behavior).toBe('allow');
    expect(decision.decidedBy).toContain('user: always');
    expect(await settings()).toEqual({ permissions: { allow: ['bash(npm test*)', 'bash(npm run lint*)'] } });
    expect(savedRules.map((r) => [r.behavior, r.text, r.source])).toEqual([
      ['allow', 'bash(npm test*)', path.join(workspace, '.xagent', 'settings.local.json')],
      ['allow', 'bash(npm run lint*)', path.join(workspace, '.xagent', 'settings.local.json')],
    ]);
  });

  it('saves the exact command when it has no subcommand: a prefix of rm would allow far more', async () => {
    await ask(bash('rm -rf build'), ['a']);
    expect(await settings()).toEqual({ permissions: { allow: ['bash(rm -rf build)'] } });
  });

  it('keeps what settings.local.json already holds when "always" adds to it', async () => {
    await mkdir(path.join(workspace, '.xagent'));
    await writeFile(
      path.join(workspace, '.xagent', 'settings.local.json'),
      JSON.stringify({ permissions: { deny: ['bash(rm*)'] }, other: 1 }),
    );
    await ask(call('edit_file', { path: './src/a.ts', old_string: 'a', new_string: 'b' }), ['always']);
    expect(await settings()).toEqual({ permissions: { deny: ['bash(rm*)'], allow: ['edit_file(src/a.ts)'] }, other: 1 });
  });

  it('shows an edit as removed and added lines around the unchanged ones', async () => {
    const edit = call('edit_file', { path: 'src/a.ts', old_string: 'keep\nold line\nend', new_string: 'keep\nnew line\nend' });
    const { shown } = await ask(edit, ['n']);
    expect(shown).toContain('xagent wants to use edit_file on src/a.ts');
    expect(shown).toContain('    1   keep\n    2 - old line\n    2 + new line\n    3   end');
  });

  it("shows an edit of a file as the file's diff, numbered, with 3 lines of context", async () => {
    await mkdir(path.join(workspace, 'src'), { recursive: true });
    await writeFile(path.join(workspace, 'src', 'b.ts'), `${Array.from({ length: 12 }, (_, i) => `l${i + 1}`).join('\n')}\n`);
    const { shown } = await ask(call('edit_file', { path: 'src/b.ts', old_string: 'l7\n', new_string: 'seven\n' }), ['n']);
    expect(shown).toContain(
      ['    4   l4', '    5   l5', '    6   l6', '    7 - l7', '    7 + seven', '    8   l8', '    9   l9', '   10   l10'].join('\n'),
    );
    expect(shown).not.toMatch(/l3\b|l11\b/);
  });

  it('shows a write with its size, its first lines and whether it replaces a file', async () => {
    await writeFile(path.join(workspace, 'notes.md'), '12345');
    const content = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const { shown } = await ask(call('write_file', { path: 'notes.md', content }), ['n']);
    expect(shown).toContain(`${Buffer.byteLength(content)} bytes, 20 lines (replaces the existing 5 bytes):`);
    expect(shown).toContain('  | line 1\n');
    expect(shown).toContain('  | line 12\n');
    expect(shown).not.toContain('line 13\n');
    expect(shown).toContain('... 8 more lines');
  });

  it('makes control characters visible so a command cannot hide part of itself', async () => {
    const { shown } = await ask(bash('rm -rf ~\r\u001b[2Knpm test'), ['n']);
    expect(shown).toContain('$ rm -rf ~\\x0d\\x1b[2Knpm test');
    expect(shown).not.toContain('\u001b');
  });

  it('asks again after an answer it cannot read', async () => {
    const { decision, shown } = await ask(bash('npm test'), ['maybe', 'y']);
    expect(shown).toContain('Please answer y or n or a.');
    expect(decision.behavior).toBe('allow');
  });

  it('offers no "always" for a command it cannot read safely, and refuses "a" there', async () => {
    const { decision, shown } = await ask(bash('cat <<EOF\nhi\nEOF'), ['a', 'n']);
    expect(shown).not.toContain('[a]lways');
    expect(shown).toContain('Please answer y or n.');
    expect(decision.behavior).toBe('deny');
  });

  it('denies when the input ends without an answer', async () => {
    const { decision } = await ask(bash('npm test'), [], undefined, true);
    expect(decision).toMatchObject({ behavior: 'deny', decidedBy: expect.stringContaining('input closed') });
  });

  it('denies when aborted while waiting for the answer', async () => {
    const controller = new AbortController();
    const pendingAnswer = ask(bash('npm test'), [], controller.signal);
    setImmediate(() => controller.abort());
    const { decision } = await pendingAnswer;
    expect(decision).toMatchObject({ behavior: 'deny', decidedBy: expect.stringContaining('aborted') });
  });

  it('denies at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { decision, shown } = await ask(bash('npm test'), ['y'], controller.signal);
    expect(decision.behavior).toBe('deny');
    expect(shown).toBe('');
  });
});
