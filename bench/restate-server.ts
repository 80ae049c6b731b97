/**
 * A real Restate server for the durable-task tests and benchmark (the dev dependency
 * @restatedev/restate-server): its binary started directly (so the caller can kill it by pid), on
 * free loopback ports, with its data in a temporary folder; and xagent workers (`xagent serve
 * --restate`) registered with it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';

const require = createRequire(import.meta.url);

/** The server binary, or why it cannot run here (the tests then skip, saying so). */
export function restateBinary(): { path: string } | { missing: string } {
  let binary: string;
  try {
    binary = require.resolve(`@restatedev/restate-server-${os.platform()}-${os.arch()}/bin/restate-server`);
  } catch {
    return { missing: `no restate-server binary for ${os.platform()}-${os.arch()} in node_modules` };
  }
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (probe.status !== 0) return { missing: `${binary} --version failed: ${probe.error?.message ?? probe.stderr}` };
  return { path: binary };
}

/** A port nobody listens on right now (the server binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RestateServer {
  ingress: string;
  admin: string;
  readonly pid: number;
  /** Stops it (SIGTERM, then SIGKILL) and waits for the process to end. */
  stop(): Promise<void>;
  /** Starts it again on the same ports and data (a server restart). */
  restart(): Promise<void>;
  log(): string;
}

/** Starts a server with its data under `dir` (and `env` added to its settings); resolves once its ingress and admin API answer. */
export async function startRestateServer(binary: string, dir: string, env: Record<string, string> = {}): Promise<RestateServer> {
  const [ingressPort, adminPort, nodePort] = [await freePort(), await freePort(), await freePort()];
  const ingress = `http://127.0.0.1:${ingressPort}`;
  const admin = `http://127.0.0.1:${adminPort}`;
  let child: ChildProcess;
  let output = '';
  const start = async () => {
    child = spawn(binary, ['--base-dir', dir, '--no-logo', '--node-name', 'xagent-test', '--listen-mode', 'tcp'], {
      env: {
        PATH: process.env.PATH ?? '',
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
        RESTATE_BIND_ADDRESS: `127.0.0.1:${nodePort}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${nodePort}/`,
        RESTATE_DISABLE_TELEMETRY: 'true',
        RESTATE_DEFAULT_NUM_PARTITIONS: '4',
        RESTATE_ROCKSDB_TOTAL_MEMORY_SIZE: '256MB',
        RESTATE_LOG_FILTER: 'warn',
        // A worker killed mid-task: Restate tries its invocations again soon (the default starts at 500 ms too).
        RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: '200ms',
        RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: '2s',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(
      async () => (await ok(`${admin}/health`)) && (await ok(`${ingress}/restate/health`)),
      `restate-server on ${admin}`,
      () => output,
    );
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const ended = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await ended;
    clearTimeout(timer);
  };
  await start();
  return {
    ingress,
    admin,
    get pid() {
      return child.pid ?? -1;
    },
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    log: () => output,
  };
}

export interface Worker {
  readonly pid: number;
  port: number;
  /** Peak resident memory so far (Linux /proc VmHWM) and now (VmRSS), in MB; null elsewhere. */
  memory(): { peakMb: number; rssMb: number } | null;
  /** kill -9: no goodbye, its invocations in flight are cut. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
  output(): string;
}

/** Starts `xagent serve --restate` on `port` (with `args`: `--accept-from-spec`, `--identity-key`...); resolves once it says it registered. */
export async function startWorker(options: {
  cli: string;
  port: number;
  admin: string;
  env: Record<string, string>;
  args?: string[];
}): Promise<Worker> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...options.env };
  const child = spawn(
    process.execPath,
    [options.cli, 'serve', '--restate', '--port', String(options.port), '--restate-admin', options.admin, ...(options.args ?? [])],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`the worker exited ${child.exitCode}:\n${output}`);
      return output.includes('registered with');
    },
    `worker on port ${options.port}`,
    () => output,
  );
  return {
    pid: child.pid ?? -1,
    port: options.port,
    kill9: async () => {
      child.kill('SIGKILL');
      await closed;
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await closed;
      clearTimeout(timer);
    },
    output: () => output,
    memory: () => memoryOf(child.pid ?? -1),
  };
}

function memoryOf(pid: number): { peakMb: number; rssMb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
  } catch {
    return null;
  }
}

async function ok(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds; gives up after `limitMs` with what the process said. */
export async function until(
  check: () => Promise<boolean> | boolean,
  what: string,
  said: () => string = () => '',
  limitMs = 60_000,
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`gave up waiting for ${what}:\n${said().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
