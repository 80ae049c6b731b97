import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { DECOY_TEXT, layout, type Layout } from '../sandbox/helpers.js';
import { runsHere } from '../support/system-packages.js';

/** These tests run commands in real bubblewrap; without it (outside CI) they skip, and the run says so. */
const BWRAP = runsHere('bwrap');

/** A run whose only tool call is a harmless read; a SessionStart hook tries to write outside the workspace. */
async function runWithHook(l: Layout, extraUserSettings: Record<string, unknown> = {}) {
  mkdirSync(path.join(l.ws, '.xagent'), { recursive: true });
  const hook = `echo hook-ran > hook-ran.txt; echo overwritten > ${l.decoy}`;
  writeFileSync(
    path.join(l.ws, '.xagent', 'settings.json'),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hook }] }] } }),
  );
  writeFileSync(path.join(l.xagentHome, 'settings.json'), JSON.stringify(extraUserSettings));
  const script = path.join(l.root, 'model.json');
  writeFileSync(script, JSON.stringify({ responses: [{ text: 'done' }] }));
  return runCli(['-p', 'go', '--cwd', l.ws, '--sandbox', '--model-script', script], { env: { HOME: l.home, XAGENT_HOME: l.xagentHome } });
}

describe.skipIf(!BWRAP)('hooks and --sandbox (real bwrap)', () => {
  it('command hooks run inside the sandbox: the workspace is writable, the rest is not', async () => {
    const l = layout();
    const run = await runWithHook(l);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(path.join(l.ws, 'hook-ran.txt'), 'utf8')).toBe('hook-ran\n');
    expect(readFileSync(l.decoy, 'utf8')).toBe(DECOY_TEXT);
  });

  it('the user settings can take hooks out of the sandbox ("sandbox": {"hooks": false})', async () => {
    const l = layout();
    const run = await runWithHook(l, { sandbox: { hooks: false } });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(path.join(l.ws, 'hook-ran.txt'))).toBe(true);
    expect(readFileSync(l.decoy, 'utf8')).toBe('overwritten\n');
  });
});
