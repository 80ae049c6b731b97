import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, INTERACTIVE_LIMITS } from '../../src/engine/limits.js';
import { resolveLimits } from '../../src/run/settings-limits.js';
import { SettingsError } from '../../src/settings/settings-error.js';
import { runCli } from '../support/run-cli.js';

describe('-p limits: defaults, the settings key `limits`, the flags', () => {
  it('gives -p Claude Code-sized defaults: 100 turns, 500 tool calls, 30 minutes', () => {
    expect(DEFAULT_LIMITS).toEqual({ maxTurns: 100, maxToolCalls: 500, timeoutMs: 1_800_000 });
  });

  it('takes each limit from the flag, else the highest settings file that sets it, else the default', () => {
    const layers = [
      { source: 'local.json', value: { maxTurns: 50 } },
      { source: 'user.json', value: { maxTurns: 7, maxToolCalls: 900, timeout: '1h' } },
    ];
    expect(resolveLimits({}, layers, DEFAULT_LIMITS)).toEqual({ maxTurns: 50, maxToolCalls: 900, timeoutMs: 3_600_000 });
    expect(resolveLimits({ maxTurns: 5, timeoutMs: 1000 }, layers, DEFAULT_LIMITS)).toEqual({
      maxTurns: 5,
      maxToolCalls: 900,
      timeoutMs: 1000,
    });
  });

  it('keeps the interactive UI without limits unless one is set', () => {
    expect(resolveLimits({}, [], INTERACTIVE_LIMITS)).toEqual(INTERACTIVE_LIMITS);
    expect(resolveLimits({}, [{ source: 's.json', value: { maxToolCalls: 30 } }], INTERACTIVE_LIMITS).maxToolCalls).toBe(30);
  });

  it('refuses a bad limit, naming the file and the key', () => {
    expect(() => resolveLimits({}, [{ source: '/p/s.json', value: { maxTurns: 0 } }], DEFAULT_LIMITS)).toThrow(SettingsError);
    expect(() => resolveLimits({}, [{ source: '/p/s.json', value: { maxTurn: 3 } }], DEFAULT_LIMITS)).toThrow(
      /\/p\/s\.json.*limits\.maxTurn/,
    );
    expect(() => resolveLimits({}, [{ source: '/p/s.json', value: { timeout: 'soon' } }], DEFAULT_LIMITS)).toThrow(/limits\.timeout/);
    expect(() => resolveLimits({}, [{ source: '/p/s.json', value: [] }], DEFAULT_LIMITS)).toThrow(/"limits" must be an object/);
  });
});

describe('xagent -p with the settings key `limits` (end to end)', () => {
  /** A workspace and a script of `rounds` tool rounds, then an answer. */
  function task(rounds: number, settings?: unknown): { workspace: string; home: string; script: string } {
    const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-limits-'));
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home');
    mkdirSync(path.join(workspace, '.xagent'), { recursive: true });
    mkdirSync(home);
    if (settings !== undefined) writeFileSync(path.join(workspace, '.xagent', 'settings.json'), JSON.stringify(settings));
    const responses = [
      ...Array.from({ length: rounds }, () => ({ content: [{ type: 'tool_use', name: 'list_dir', input: {} }] })),
      { text: 'done' },
    ];
    const script = path.join(root, 'script.json');
    writeFileSync(script, JSON.stringify({ responses }));
    return { workspace, home, script };
  }
  const run = (t: ReturnType<typeof task>, flags: string[] = []) =>
    runCli(['-p', 'go', '--output-format', 'json', '--model-script', t.script, '--cwd', t.workspace, ...flags], {
      env: { XAGENT_HOME: t.home },
    });

  it('runs a task of 20 rounds to its answer with the defaults (the old ones stopped it at 8)', async () => {
    const result = await run(task(20));
    expect(JSON.parse(result.stdout)).toMatchObject({ reason: 'final_answer', turns: 21, tool_calls: 20 });
    expect(result.code).toBe(0);
  });

  it("stops at the project's settings limit, and a flag wins over it", async () => {
    const t = task(5, { limits: { maxTurns: 3 } });
    const limited = await run(t);
    expect(JSON.parse(limited.stdout)).toMatchObject({ reason: 'max_turns', turns: 3 });
    expect(limited.code).toBe(3);
    const flagged = await run(t, ['--max-turns', '10']);
    expect(JSON.parse(flagged.stdout)).toMatchObject({ reason: 'final_answer' });
  });

  it("reads the user's settings limit too", async () => {
    const t = task(5);
    writeFileSync(path.join(t.home, 'settings.json'), JSON.stringify({ limits: { maxToolCalls: 2 } }));
    const result = await run(t);
    expect(JSON.parse(result.stdout)).toMatchObject({ reason: 'max_tool_calls', tool_calls: 2 });
    expect(result.code).toBe(4);
  });
});
