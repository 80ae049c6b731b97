import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from '../support/run-cli.js';

/** The built CLI: these tests run what `npm install` ships (`npm test` builds first). */
export { CLI };

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
}

export interface Sandbox {
  home: string;
  workspace: string;
  /** Writes a --model-script file and returns its path. */
  script(name: string, responses: unknown[]): string;
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
}

/** A temp XAGENT_HOME and a workspace holding notes.txt. */
export function sandbox(): Sandbox {
  const root = mkdtempSync(path.join(os.tmpdir(), 'xagent-e2e-'));
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'ws');
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, 'notes.txt'), 'the notes say hello\n');
  return {
    home,
    workspace,
    script: (name, responses) => {
      const file = path.join(root, name);
      writeFileSync(file, JSON.stringify({ responses }));
      return file;
    },
    env: (extra = {}) => {
      const env: NodeJS.ProcessEnv = { ...process.env, XAGENT_HOME: home, NO_COLOR: '1', ...extra };
      // The developer's own key or proxy must never reach a test run.
      if (!('ANTHROPIC_API_KEY' in extra)) delete env.ANTHROPIC_API_KEY;
      if (!('ANTHROPIC_BASE_URL' in extra)) delete env.ANTHROPIC_BASE_URL;
      return env;
    },
  };
}

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** stdout parsed as JSON lines (stream-json), skipping lines that are not JSON. */
  events(): Array<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

export function startCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }): CliProcess {
  const child = spawn(process.execPath, [CLI, ...args], { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout: out, stderr: err })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    events: () =>
      out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited,
  };
}

export function runCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string }) {
  return startCli(args, options).exited;
}

/** Polls until `ready()` holds; fails with `what` (and the process's stderr) if it never does. */
export async function waitFor(ready: () => boolean, what: string, cli?: CliProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${cli ? `\nstderr: ${cli.stderr()}\nstdout: ${cli.stdout()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The bash tool runs commands in their own process group; a SIGKILLed CLI leaves it behind. */
export function killProcessGroupFrom(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function sessionIdOf(cli: CliProcess): string {
  const state = cli.events().find((e) => e.type === 'state');
  if (typeof state?.session_id !== 'string') throw new Error(`no session id in the output yet:\n${cli.stdout()}`);
  return state.session_id;
}
