import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bundled CLI, as `bin` runs it and `npm pack` ships it (npm run build). XAGENT_TEST_CLI runs
 * the CLI tests against another copy, e.g. one installed from the packed tarball.
 */
export const CLI = process.env.XAGENT_TEST_CLI
  ? path.resolve(process.env.XAGENT_TEST_CLI)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/bin/xagent.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  /** Another copy of the CLI to run (default: CLI). */
  cli?: string;
  /** Called with the child and its output so far, every time it writes. */
  onOutput?: (child: ChildProcess, output: { stdout: string; stderr: string }) => void;
}

/**
 * The tests' workspaces are their own: the project files a test writes there (hooks, MCP servers,
 * allow rules) are trusted, as a person would after reading them (issue 31's trust gate). A test
 * of the gate itself passes `XAGENT_TRUST: undefined`, which leaves the variable out.
 */
export const TRUSTED_ENV = { XAGENT_TRUST: '1' } as const;

/** Runs the built CLI as a child process, with a clean environment plus `env`. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...TRUSTED_ENV };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value !== undefined) env[key] = value;
    else if (key in TRUSTED_ENV) delete env[key];
  }
  const child = spawn(process.execPath, [options.cli ?? CLI, ...args], { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
    options.onOutput?.(child, output);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
    options.onOutput?.(child, output);
  });
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, ...output }));
  });
}

export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
