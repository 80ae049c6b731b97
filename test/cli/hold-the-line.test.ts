import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAlive } from '../../src/system/process-group.js';
import { mkfifo } from '../tools/helpers.js';
import { CLI, runCli, type CliRun } from '../support/run-cli.js';

/** Regressions from issue 18 at the CLI: hangs, lost audit lines, silent flags, start-up signals. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(responses: unknown[]) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-hold-'));
  dirs.push(root);
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(workspace);
  mkdirSync(home);
  const script = path.join(root, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  return { root, workspace, home, script };
}

const bashCall = (command: string) => ({ content: [{ type: 'tool_use', name: 'bash', input: { command } }] });
const sessionFile = (home: string, name: string) => {
  const [id] = readdirSync(path.join(home, 'sessions'));
  return readFileSync(path.join(home, 'sessions', id!, name), 'utf8');
};

/** Runs the CLI, killing it (and failing) only if it is still alive after `guardMs`: that is the hang. */
async function guarded(
  args: string[],
  env: Record<string, string>,
  guardMs = 30_000,
  act?: (child: ReturnType<typeof spawn>) => void,
): Promise<CliRun & { hung: boolean }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: env.XAGENT_HOME ?? '/tmp', NO_COLOR: '1', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let hung = false;
  const guard = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, guardMs);
  act?.(child);
  const [code, signal] = (await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])))) as [
    number | null,
    NodeJS.Signals | null,
  ];
  clearTimeout(guard);
  return { code, signal, stdout, stderr, hung };
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('issue 18.8 and 18.11: a task stopped during a bash command', () => {
  it.each([
    ['Ctrl-C', 'SIGINT', 'sleep 30', 130],
    ['SIGTERM', 'SIGTERM', 'sleep 30', 130],
    ['Ctrl-C, the command ignoring SIGTERM', 'SIGINT', "trap '' TERM; sleep 30", 130],
  ] as const)('%s: exits, kills the command and writes its audit line', async (_name, signal, command, code) => {
    const s = setup([bashCall(`echo $$ > pid; ${command}`), { text: 'never' }]);
    const run = await guarded(
      ['-p', 'go', '--cwd', s.workspace, '--allow', 'bash', '--model-script', s.script],
      { XAGENT_HOME: s.home },
      30_000,
      (child) => {
        void until(
          () => existsSync(path.join(s.workspace, 'pid')) && readFileSync(path.join(s.workspace, 'pid'), 'utf8').endsWith('\n'),
        ).then(() => child.kill(signal));
      },
    );
    expect(run.hung).toBe(false);
    expect(run.code).toBe(code);
    const pgid = Number(readFileSync(path.join(s.workspace, 'pid'), 'utf8'));
    await until(() => !groupAlive(pgid), 3000);
    const audit = sessionFile(s.home, 'audit.jsonl')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ aborted: true, is_error: true, call: { name: 'bash' } });
  });

  it('--timeout during the command: exit 5, the command killed, the audit line written', async () => {
    const s = setup([bashCall("echo $$ > pid; trap '' TERM; sleep 30"), { text: 'never' }]);
    const run = await guarded(['-p', 'go', '--cwd', s.workspace, '--allow', 'bash', '--timeout', '2s', '--model-script', s.script], {
      XAGENT_HOME: s.home,
    });
    expect(run.hung).toBe(false);
    expect(run.code).toBe(5);
    await until(() => !groupAlive(Number(readFileSync(path.join(s.workspace, 'pid'), 'utf8'))), 3000);
    expect(sessionFile(s.home, 'audit.jsonl')).toContain('"aborted":true');
  });
});

describe('issue 18.7: a FIFO does not hang the process', () => {
  it.each([
    ['grep', { pattern: 'x', path: 'pipe' }],
    ['edit_file', { path: 'pipe', old_string: 'a', new_string: 'b' }],
  ])('%s on a FIFO is an error result and the task goes on', async (name, input) => {
    const s = setup([{ content: [{ type: 'tool_use', name, input }] }, { text: 'done' }]);
    mkfifo(path.join(s.workspace, 'pipe'));
    const run = await guarded(
      ['-p', 'go', '--cwd', s.workspace, '--permission-mode', 'acceptEdits', '--timeout', '5s', '--model-script', s.script],
      { XAGENT_HOME: s.home },
      20_000,
    );
    expect(run.hung).toBe(false);
    expect(run.code).toBe(0);
    expect(sessionFile(s.home, 'transcript.jsonl')).toContain('not a regular file');
  });

  it.each(['fifo', 'dev-zero'])('a settings file that is a %s is a clear exit 2', async (kind) => {
    const s = setup([{ text: 'done' }]);
    mkdirSync(path.join(s.workspace, '.xagent'));
    const file = path.join(s.workspace, '.xagent', 'settings.json');
    if (kind === 'fifo') mkfifo(file);
    else symlinkSync('/dev/zero', file);
    const run = await guarded(['-p', 'go', '--cwd', s.workspace, '--model-script', s.script], { XAGENT_HOME: s.home }, 20_000);
    expect(run.hung).toBe(false);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('not a regular file');
  });
});

describe('issue 18.10: a tool input nested thousands of levels deep', () => {
  it('goes back to the model as an invalid input; the task finishes', async () => {
    const s = setup([]);
    const deep = `${'{"a":'.repeat(4500)}"x"${'}'.repeat(4500)}`;
    writeFileSync(
      s.script,
      `{"responses":[{"content":[{"type":"tool_use","name":"read_file","input":{"path":"a","x":${deep}}}]},{"text":"done"}]}`,
    );
    const run = await guarded(
      ['-p', 'go', '--cwd', s.workspace, '--output-format', 'json', '--model-script', s.script],
      { XAGENT_HOME: s.home },
      20_000,
    );
    expect(run.hung).toBe(false);
    expect(run.code).toBe(0);
    expect(sessionFile(s.home, 'transcript.jsonl')).toContain('nested more than 64 levels deep');
  });
});

describe('issue 18.13: flags and rules that were accepted silently', () => {
  it.each([
    [['--allow', 'nosuchtool'], 'nosuchtool'],
    [['--deny', 'bassh'], 'did you mean "bash"'],
    [['--model', ''], '--model is empty'],
    [['--inspect', 'abc'], '--inspect "abc" is not a port'],
  ])('%j exits 2 and says why', async (flags, message) => {
    const s = setup([{ text: 'done' }]);
    const run = await runCli(['-p', 'go', '--cwd', s.workspace, '--model-script', s.script, ...flags], { env: { XAGENT_HOME: s.home } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('an unknown tool in a settings file exits 2 naming the file and the rule', async () => {
    const s = setup([{ text: 'done' }]);
    mkdirSync(path.join(s.workspace, '.xagent'));
    writeFileSync(path.join(s.workspace, '.xagent', 'settings.json'), JSON.stringify({ permissions: { deny: ['bassh'] } }));
    const run = await runCli(['-p', 'go', '--cwd', s.workspace, '--model-script', s.script], { env: { XAGENT_HOME: s.home } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('settings.json');
    expect(run.stderr).toContain('rule "bassh"');
  });

  it('a resumed scripted session never repeats a tool id', async () => {
    const s = setup([{ content: [{ type: 'tool_use', name: 'list_dir', input: {} }] }, { text: 'done' }]);
    const first = await runCli(['-p', 'one', '--cwd', s.workspace, '--model-script', s.script], { env: { XAGENT_HOME: s.home } });
    expect(first.code).toBe(0);
    const second = await runCli(['-p', 'two', '--continue', '--cwd', s.workspace, '--model-script', s.script], {
      env: { XAGENT_HOME: s.home },
    });
    expect(second.code).toBe(0);
    type Block = { type: string; id?: string };
    const ids = sessionFile(s.home, 'transcript.jsonl')
      .trim()
      .split('\n')
      .flatMap((line) => {
        const { content } = JSON.parse(line) as { content: Block[] | string };
        return typeof content === 'string' ? [] : content.filter((b) => b.type === 'tool_use').map((b) => b.id);
      });
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  it('Ctrl-C during start-up (waiting for the prompt on stdin) exits 130, not by the signal', async () => {
    const s = setup([{ text: 'done' }]);
    const run = await guarded(['-p', '--cwd', s.workspace, '--model-script', s.script], { XAGENT_HOME: s.home }, 20_000, (child) => {
      // stdin stays open: the CLI is waiting for the prompt.
      setTimeout(() => child.kill('SIGINT'), 1500);
    });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(130);
  });
});
