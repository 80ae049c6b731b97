import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/engine/limits.js';
import { taskSettingsOf, withTaskSettings } from '../../src/restate/task-settings.js';
import { buildRunConfig, policyFor, type RunConfig } from '../../src/run/run-config.js';

/** A worker's view of a task: its own XAGENT_HOME (settings.json there), the shared workspace. */
const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-task-settings-'));
const workspace = path.join(root, 'ws');
mkdirSync(workspace);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function workerConfig(name: string, settings: unknown): RunConfig {
  const home = path.join(root, name);
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify(settings));
  const script = path.join(root, 'script.json');
  writeFileSync(script, JSON.stringify({ responses: [{ text: 'done' }] }));
  return buildRunConfig(
    {
      cwd: workspace,
      limits: DEFAULT_LIMITS,
      format: 'json',
      inspectPort: null,
      session: { continue: false },
      prompt: 'go',
      trustProject: true,
    },
    { XAGENT_HOME: home },
    // Never asked: nothing here calls the model.
    () => ({}) as ReturnType<Parameters<typeof buildRunConfig>[2]>,
  );
}

const bashCall = { id: 'toolu_1', name: 'bash', input: { command: 'npm test' } };

describe('the settings a task carries (journaled as JSON, src/restate/task-settings.ts)', () => {
  it('make a worker with other settings files decide as the first did, hooks and their matchers included', () => {
    const first = workerConfig('a', {
      permissions: { allow: ['bash(npm test*)'] },
      hooks: { PreToolUse: [{ matcher: 'bash|edit_file', hooks: [{ type: 'command', command: 'echo checked' }] }] },
    });
    const other = workerConfig('b', { permissions: { deny: ['bash'] }, permissionMode: 'plan' });
    expect(policyFor(other).decide(bashCall, { readOnly: false }).behavior).toBe('deny');

    // Through JSON, as Restate keeps the journal entry.
    const journaled = JSON.parse(JSON.stringify(taskSettingsOf(first))) as ReturnType<typeof taskSettingsOf>;
    const replayed = withTaskSettings(other, journaled);
    expect(policyFor(first).decide(bashCall, { readOnly: false }).behavior).toBe('allow');
    expect(policyFor(replayed).decide(bashCall, { readOnly: false })).toEqual(policyFor(first).decide(bashCall, { readOnly: false }));
    expect(replayed.permissionMode).toBe(first.permissionMode);
    expect(replayed.limits).toEqual(first.limits);
    expect(replayed.hooks).toHaveLength(1);
    expect(replayed.hooks[0]?.matcher?.test('edit_file')).toBe(true);
    expect(replayed.hooks[0]?.matcher?.test('read_file')).toBe(false);
    expect(replayed.hooks[0]?.source).toBe(path.join(root, 'a', 'settings.json'));
  });
});
