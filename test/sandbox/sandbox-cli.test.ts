import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { jsonLines, runCli } from '../support/run-cli.js';
import { DECOY_TEXT, layout, type Layout } from './helpers.js';
import { runsHere } from '../support/system-packages.js';

/** These tests run commands in real bubblewrap; without it (outside CI) they skip, and the run says so. */
const BWRAP = runsHere('bwrap');

/** A model that runs one bash command, then answers. */
function script(l: Layout, command: string): string {
  const file = path.join(l.root, 'model.json');
  writeFileSync(
    file,
    JSON.stringify({ responses: [{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command } }] }, { text: 'done' }] }),
  );
  return file;
}

const envFor = (l: Layout, extra: Record<string, string> = {}) => ({ HOME: l.home, XAGENT_HOME: l.xagentHome, ...extra });

/** A directory holding a `bwrap` that always fails the way a machine without user namespaces does. */
function brokenBwrapDir(l: Layout): string {
  const dir = path.join(l.root, 'broken-bin');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
  chmodSync(path.join(dir, 'bwrap'), 0o755);
  return dir;
}

async function sandboxedRun(l: Layout, flags: string[]) {
  const command = `echo inside > made.txt; echo overwritten > ${l.decoy}`;
  const run = await runCli(
    ['-p', 'go', '--cwd', l.ws, '--output-format', 'stream-json', '--stop-on-denial', '--model-script', script(l, command), ...flags],
    {
      env: envFor(l),
    },
  );
  return { run, events: jsonLines(run.stdout) };
}

describe('xagent --sandbox (real bwrap)', () => {
  it.skipIf(!BWRAP)('runs bash without a prompt inside the sandbox, and the stream, trace and audit say so', async () => {
    const l = layout();
    const { run, events } = await sandboxedRun(l, ['--sandbox']);
    expect(run.code, run.stderr).toBe(0);
    const toolResult = events.find((e) => e.type === 'tool_result') as {
      result: { is_error: boolean; sandboxed?: boolean; content: string };
    };
    expect(toolResult.result).toMatchObject({ is_error: true, sandboxed: true });
    expect(toolResult.result.content).toContain('Read-only file system');
    expect(readFileSync(path.join(l.ws, 'made.txt'), 'utf8')).toBe('inside\n');
    expect(readFileSync(l.decoy, 'utf8')).toBe(DECOY_TEXT);

    const result = events.at(-1) as { trace_path: string };
    const trace = jsonLines(readFileSync(result.trace_path, 'utf8'));
    const executing = trace.find((line) => line.state === 'execute_tool.running') as { decision: { behavior: string; decidedBy: string } };
    expect(executing.decision.behavior).toBe('allow');
    expect(executing.decision.decidedBy).toMatch(/^sandbox: /);
    const audit = jsonLines(readFileSync(path.join(path.dirname(result.trace_path), 'audit.jsonl'), 'utf8'));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ sandboxed: true, is_error: true });
    // `xagent inspect` on the recorded session shows it too.
    const replayed = loadSessionHistory(result.trace_path).records.find((r) => r.kind === 'tool_result');
    expect(replayed).toMatchObject({ result: { sandboxed: true } });
  });

  it('without the sandbox the same run stops: there is no terminal to ask', async () => {
    const l = layout();
    const { run } = await sandboxedRun(l, []);
    expect(run.code).toBe(6);
    expect(readFileSync(l.decoy, 'utf8')).toBe(DECOY_TEXT);
  });

  it.skipIf(!BWRAP)(
    'is switched on by "sandbox": {"enabled": true} in the project settings, and off for one run by --no-sandbox',
    async () => {
      const l = layout();
      mkdirSync(path.join(l.ws, '.xagent'));
      writeFileSync(path.join(l.ws, '.xagent', 'settings.json'), JSON.stringify({ sandbox: { enabled: true } }));
      expect((await sandboxedRun(l, [])).run.code).toBe(0);
      expect(existsSync(path.join(l.ws, 'made.txt'))).toBe(true);
      expect((await sandboxedRun(l, ['--no-sandbox'])).run.code).toBe(6);
    },
  );

  it('refuses a project settings file that opens the network (exit 2)', async () => {
    const l = layout();
    mkdirSync(path.join(l.ws, '.xagent'));
    writeFileSync(path.join(l.ws, '.xagent', 'settings.json'), JSON.stringify({ sandbox: { enabled: true, network: true } }));
    const { run } = await sandboxedRun(l, []);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"sandbox.network": true widens the sandbox');
  });

  it('exits 2 at start, saying how to install it, when bwrap is not on the PATH', async () => {
    const l = layout();
    const run = await runCli(['-p', 'go', '--cwd', l.ws, '--sandbox', '--model-script', script(l, 'true')], {
      env: envFor(l, { PATH: path.join(l.root, 'empty-bin') }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no bwrap on the PATH');
    expect(run.stderr).toContain('apt-get install bubblewrap');
    expect(run.stdout).toBe('');
  });

  it("exits 2 at start with bwrap's own words when bwrap cannot start a sandbox, never running unsandboxed", async () => {
    const l = layout();
    const env = envFor(l, { PATH: `${brokenBwrapDir(l)}:${process.env.PATH ?? ''}` });
    const run = await runCli(['-p', 'go', '--cwd', l.ws, '--sandbox', '--model-script', script(l, 'echo ran > ran.txt')], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot start a sandbox on this machine: bwrap: setting up uid map: Permission denied');
    expect(existsSync(path.join(l.ws, 'ran.txt'))).toBe(false);
  });
});

describe('xagent sandbox check', () => {
  it.skipIf(!BWRAP)('tries every promise for real and reports them all working here', async () => {
    const l = layout();
    const run = await runCli(['sandbox', 'check', '--cwd', l.ws, '--json'], { env: envFor(l) });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { ok: boolean; workspace: string; checks: Array<{ name: string; ok: boolean }> };
    expect(report.ok).toBe(true);
    // Regression: the main command's own --cwd took the value, so the check ran in the current folder.
    expect(report.workspace).toBe(realpathSync(l.ws));
    expect(report.checks.map((c) => c.name)).toEqual([
      'bwrap found',
      'starts a sandbox',
      'no capabilities',
      'rest of the file system read-only',
      'workspace writable',
      '.xagent, .claude, .mcp.json, .git/hooks, .git/config, .git/commondir read-only',
      'private /tmp',
      'own PID namespace',
      'secrets hidden',
      'no network',
    ]);
    expect(readFileSync(l.decoy, 'utf8')).toBe(DECOY_TEXT);
  });

  it('says in words when bwrap cannot start (exit 1), and how to install it when it is missing (exit 2)', async () => {
    const l = layout();
    const broken = await runCli(['sandbox', 'check', '--cwd', l.ws], {
      env: envFor(l, { PATH: `${brokenBwrapDir(l)}:${process.env.PATH ?? ''}` }),
    });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('✗ starts a sandbox: bwrap: setting up uid map: Permission denied');
    const missing = await runCli(['sandbox', 'check', '--cwd', l.ws], { env: envFor(l, { PATH: path.join(l.root, 'empty-bin') }) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('apt-get install bubblewrap');
  });
});
