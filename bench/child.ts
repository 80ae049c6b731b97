import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The repository root, from dist/bench/ (compiled) or bench/ (run from source by vitest). */
export const repoRoot = path.resolve(here, path.basename(path.dirname(here)) === 'dist' ? '../..' : '..');

/** The bundled CLI, as `bin` runs it (npm run build); XAGENT_BENCH_CLI measures another build (before/after). */
export const cliPath = process.env.XAGENT_BENCH_CLI
  ? path.resolve(process.env.XAGENT_BENCH_CLI)
  : path.join(repoRoot, 'dist/bin/xagent.js');

/** A compiled bench helper script, e.g. benchScript('stream-echo') → dist/bench/stream-echo.js. */
export const benchScript = (name: string) => path.join(repoRoot, 'dist/bench', `${name}.js`);

export interface ChildRun {
  /** `performance.now()` right before spawn. */
  startedAt: number;
  /** ms from spawn to exit. */
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns `node <args>` and resolves when it exits, with the time from spawn to exit.
 * `onStdout` sees each chunk with its arrival time (for the streaming benchmark).
 * @example const { ms } = await runNode(['-e', '0']);
 */
export function runNode(
  args: string[],
  options: SpawnOptions & { onStdout?: (chunk: string, at: number) => void; onSpawn?: (startedAt: number) => void } = {},
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const { onStdout, onSpawn, ...spawnOptions } = options;
    const startedAt = performance.now();
    onSpawn?.(startedAt);
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], ...spawnOptions });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const at = performance.now();
      stdout += chunk;
      onStdout?.(chunk, at);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - startedAt;
      // Wait for the pipes to drain before reporting the output.
      child.on('close', () => resolve({ startedAt, ms, code, stdout, stderr }));
    });
  });
}

/** Environment for a CLI run against a local fake API, with its own XAGENT_HOME. */
export function cliEnv(apiUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: apiUrl, NO_COLOR: '1' };
  delete env.ANTHROPIC_AUTH_TOKEN;
  delete env.ANTHROPIC_MODEL;
  env.XAGENT_HOME = mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-home-'));
  return env;
}

/** A fresh, empty workspace folder. */
export function tempWorkspace(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-ws-'));
}
