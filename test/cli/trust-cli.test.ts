import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/run-cli.js';

/**
 * Issue 31 M5: a cloned repository's MCP servers, hooks and allow rules take effect only once the
 * person trusts them. Without a terminal to ask on, -p exits 2 and says how to trust them.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A workspace as a clone would bring it: an MCP server, a SessionStart hook and an allow rule, each leaving a mark if used. */
function clonedRepository() {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-trust-')));
  dirs.push(root);
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  const marks = path.join(root, 'marks');
  for (const dir of [workspace, home, marks, path.join(workspace, '.xagent')]) mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(workspace, '.mcp.json'),
    JSON.stringify({ mcpServers: { planted: { command: 'sh', args: ['-c', `touch ${marks}/mcp; exit 1`] } } }),
  );
  const settings = (hook: string) =>
    JSON.stringify({
      permissions: { allow: ['bash(touch *)'], deny: ['bash(rm *)'] },
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: hook }] }] },
    });
  writeFileSync(path.join(workspace, '.xagent', 'settings.json'), settings(`touch ${marks}/hook`));
  const script = path.join(root, 'script.json');
  writeFileSync(
    script,
    JSON.stringify({
      responses: [{ content: [{ type: 'tool_use', name: 'bash', input: { command: `touch ${marks}/bash` } }] }, { text: 'done' }],
    }),
  );
  const run = (flags: string[] = [], env: Record<string, string | undefined> = {}) =>
    runCli(['-p', 'go', '--cwd', workspace, '--model-script', script, ...flags], {
      env: { XAGENT_HOME: home, XAGENT_TRUST: undefined, MCP_TIMEOUT: '5s', ...env },
    });
  return {
    root,
    workspace,
    home,
    marks,
    run,
    rewriteHook: (hook: string) => writeFileSync(path.join(workspace, '.xagent', 'settings.json'), settings(hook)),
  };
}

describe('a cloned repository with .mcp.json, hooks and an allow rule (issue 31, M5)', () => {
  it('-p without a terminal exits 2, names each item and how to trust them, and starts nothing', async () => {
    const s = clonedRepository();
    const run = await s.run();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('MCP server planted: sh -c');
    expect(run.stderr).toContain('hook SessionStart: touch');
    expect(run.stderr).toContain('allow rule bash(touch *)');
    expect(run.stderr).toContain('--trust');
    expect(run.stderr).toContain('XAGENT_TRUST=1');
    expect(run.stderr).not.toContain('bash(rm *)');
    expect(readdirSync(s.marks)).toEqual([]);
    expect(existsSync(path.join(s.home, 'sessions'))).toBe(false);
  });

  it('--trust (or XAGENT_TRUST=1) uses them for that run: the server starts, the hook runs, the rule allows (the test can fail)', async () => {
    const s = clonedRepository();
    const run = await s.run(['--trust']);
    expect(run.code).toBe(0);
    expect(readdirSync(s.marks).sort()).toEqual(['bash', 'hook', 'mcp']);
    // Not remembered: the next run without the flag is refused again.
    expect((await s.run()).code).toBe(2);
    for (const mark of readdirSync(s.marks)) rmSync(path.join(s.marks, mark));
    expect((await s.run([], { XAGENT_TRUST: '1' })).code).toBe(0);
    expect(readdirSync(s.marks).sort()).toEqual(['bash', 'hook', 'mcp']);
  });

  it('xagent mcp list names an untrusted server without starting it', async () => {
    const s = clonedRepository();
    const list = await runCli(['mcp', 'list', '--cwd', s.workspace], { env: { XAGENT_HOME: s.home, XAGENT_TRUST: undefined } });
    expect(list.code).toBe(0);
    expect(list.stderr).toContain('not started, not trusted yet');
    expect(list.stderr).toContain('MCP server planted');
    expect(existsSync(path.join(s.marks, 'mcp'))).toBe(false);
  });

  it('a remembered answer holds until an item changes: a changed hook command is refused again', async () => {
    const s = clonedRepository();
    const { buildRunConfig } = await import('../../src/run/run-config.js');
    const { rememberTrust } = await import('../../src/trust/trust-store.js');
    const { DEFAULT_LIMITS } = await import('../../src/engine/limits.js');
    const spec = {
      cwd: s.workspace,
      limits: DEFAULT_LIMITS,
      format: 'text' as const,
      inspectPort: null,
      session: { continue: false },
      prompt: 'go',
      modelScript: path.join(s.root, 'script.json'),
      trustProject: false,
    };
    const env = { XAGENT_HOME: s.home };
    const first = buildRunConfig(spec, env, () => {
      throw new Error('no API model in this test');
    });
    rememberTrust(s.home, s.workspace, first.untrusted?.items.map((item) => item.key) ?? []);
    expect(readFileSync(path.join(s.home, 'trusted-projects.json'), 'utf8')).toContain(s.workspace);
    const trusted = await s.run();
    expect(trusted.code).toBe(0);
    expect(readdirSync(s.marks).sort()).toEqual(['bash', 'hook', 'mcp']);

    s.rewriteHook(`touch ${s.marks}/changed`);
    const changed = await s.run();
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain(`hook SessionStart: touch ${s.marks}/changed`);
    expect(changed.stderr).not.toContain('MCP server planted');
    expect(existsSync(path.join(s.marks, 'changed'))).toBe(false);
  });
});

const hasScript = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
})();

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), typing `answer` once the question is
 * shown; `stopAt`: ends it (SIGTERM) once that text shows (a permission prompt it would wait at).
 */
function onTerminal(
  args: string[],
  env: Record<string, string>,
  answer: string,
  stopAt?: RegExp,
): Promise<{ code: number | null; output: string }> {
  const line = [process.execPath, CLI, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qec', line, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: env.XAGENT_HOME ?? '/tmp', NO_COLOR: '1', ...env },
  });
  let output = '';
  let typed = false;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!typed && output.includes('[y/N]')) {
      typed = true;
      child.stdin.write(`${answer}\r`);
    }
    if (stopAt && typed && stopAt.test(output.slice(output.indexOf('[y/N]')))) child.kill('SIGTERM');
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe.skipIf(!hasScript)('on a terminal (issue 31, M5)', () => {
  it('lists the items and asks; yes runs them and is remembered for the next run, even without a terminal', {
    timeout: 60_000,
  }, async () => {
    const s = clonedRepository();
    const run = await onTerminal(
      ['-p', 'go', '--cwd', s.workspace, '--model-script', path.join(s.root, 'script.json')],
      { XAGENT_HOME: s.home, MCP_TIMEOUT: '5s' },
      'y',
    );
    expect(run.output).toContain('hook SessionStart: touch');
    expect(run.code).toBe(0);
    expect(readdirSync(s.marks).sort()).toEqual(['bash', 'hook', 'mcp']);
    const again = await s.run();
    expect(again.code).toBe(0);
  });

  it('anything else runs the task without them: no hook, no server, and bash asks (no allow rule)', { timeout: 60_000 }, async () => {
    const s = clonedRepository();
    const run = await onTerminal(
      ['-p', 'go', '--cwd', s.workspace, '--model-script', path.join(s.root, 'script.json')],
      { XAGENT_HOME: s.home },
      'n',
      /touch .*marks\/bash/,
    );
    expect(run.output).toContain('going on without them');
    expect(readdirSync(s.marks)).toEqual([]);
  });
});
