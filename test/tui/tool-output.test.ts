import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { HAVE_SCRIPT } from '../support/pty.js';
import { closeUisAfterEach, startUi } from './ui-harness.js';

closeUisAfterEach();

/** A workspace with a "test run" that fails: 60 lines of progress, the assertion, 60 more, a summary. */
function failingSuite(): string {
  const workspace = tempDir('xagent-ws-');
  mkdirSync(path.join(workspace, 'scripts'));
  const lines = [
    ...Array.from({ length: 60 }, (_, i) => `progress ${i}`),
    'AssertionError: expected sum(1, 2) to equal 4',
    ...Array.from({ length: 60 }, (_, i) => `trace ${i}`),
    'Tests: 1 failed',
  ];
  writeFileSync(path.join(workspace, 'scripts', 'test.sh'), `cat <<'EOF'\n${lines.join('\n')}\nEOF\nexit 1\n`);
  return workspace;
}

describe.skipIf(!HAVE_SCRIPT && !process.env.CI)('tool output you can open', () => {
  it('a failing command shows the lines that say why; Ctrl-O prints its whole output', { timeout: 90_000 }, async () => {
    const ui = await startUi(
      [{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'sh scripts/test.sh' } }] }, { text: 'It fails.' }],
      { flags: "--allow 'bash(sh scripts/test.sh)'", workspace: failingSuite() },
    );
    ui.pty.type('run the tests\r');
    let at = await ui.pty.waitFor('⎿ exit 1 · 122 lines', ui.at);
    // Without Ctrl-O: the first lines, the assertion, the summary; not the middle of the trace.
    at = await ui.pty.waitFor('AssertionError: expected sum(1, 2) to equal 4', at);
    at = await ui.pty.waitFor('Tests: 1 failed', at);
    await ui.pty.waitFor('It fails.', at);
    expect(ui.pty.screen().slice(ui.at)).not.toContain('trace 30');

    ui.pty.type('\x0f');
    at = await ui.pty.waitFor(/the whole output, \d+ lines/, at);
    at = await ui.pty.waitFor('progress 59', at);
    at = await ui.pty.waitFor('AssertionError: expected sum(1, 2) to equal 4', at);
    await ui.pty.waitFor('trace 30', at);
  });

  it('an interrupted bash keeps its line, saying it was interrupted', { timeout: 90_000 }, async () => {
    const ui = await startUi(
      [{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'sleep 30' } }] }, { text: 'Stopped waiting.' }],
      { flags: "--allow 'bash(sleep*)'" },
    );
    ui.pty.type('wait a while\r');
    let at = await ui.pty.waitFor(/bash sleep 30 · [\d.]+s/, ui.at);
    ui.pty.type('\x1b');
    at = await ui.pty.waitFor('Interrupted', at);
    expect(ui.pty.screen().slice(ui.at)).toMatch(/⏺ bash sleep 30\s+⎿ interrupted/);
  });

  it('a call blocked by a PreToolUse hook keeps its tool line with the hook and its reason', { timeout: 90_000 }, async () => {
    const workspace = tempDir('xagent-ws-');
    mkdirSync(path.join(workspace, '.xagent'));
    const hooks = { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'echo "no sleeping on the job" >&2; exit 2' }] }] };
    writeFileSync(path.join(workspace, '.xagent', 'settings.json'), JSON.stringify({ hooks }));
    const ui = await startUi(
      [{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'sleep 1' } }] }, { text: 'The hook said no.' }],
      { flags: "--trust --allow 'bash(sleep*)'", workspace },
    );
    ui.pty.type('nap\r');
    const at = await ui.pty.waitFor('The hook said no.', ui.at);
    expect(ui.pty.screen().slice(ui.at, at)).toMatch(/⏺ bash sleep 1\s+⎿ (blocked|denied) by hook echo .*: no sleeping on the job/);
  });
});
