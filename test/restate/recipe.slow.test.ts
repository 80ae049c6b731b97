import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, restateBinary, startWorker, until, type Worker } from '../support/restate-server.js';

/**
 * Issue 41, done-when 1: the README's recipe for a Restate server on one machine accepts no
 * connection from a non-loopback address. The server is started with the environment the recipe
 * gives (its ports moved to free ones, so tests may run side by side); then every TCP socket it
 * listens on must be bound to loopback, and a connection to the machine's own non-loopback address
 * at those ports must be refused.
 */
const binary = restateBinary();
const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md');

/** The `RESTATE_*=value` assignments of the README's code block that starts `npx restate-server`. */
function recipeEnv(): Record<string, string> {
  const blocks = readFileSync(README, 'utf8').split('```');
  const recipe = blocks.find((block, i) => i % 2 === 1 && /^sh\n/.test(block) && block.includes('npx restate-server'));
  if (!recipe) throw new Error('README.md has no sh block with npx restate-server');
  return Object.fromEntries([...recipe.matchAll(/\b(RESTATE_[A-Z_]+)=(\S+)/g)].map((match) => [match[1], match[2]]));
}

/** TCP sockets the process listens on, as `address:port` (Linux /proc). */
function listening(pid: number): string[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? ''];
      } catch {
        return [];
      }
    }),
  );
  const found: string[] = [];
  for (const file of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${file}`, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local = '', state = '', inode = ''] = [fields[1], fields[3], fields[9]];
      if (state !== '0A' || !inodes.has(inode)) continue;
      const [hex = '', port = ''] = local.split(':');
      const address =
        hex.length === 8
          ? (hex.match(/../g) ?? [])
              .reverse()
              .map((byte) => Number.parseInt(byte, 16))
              .join('.')
          : `[${hex}]`;
      found.push(`${address}:${Number.parseInt(port, 16)}`);
    }
  }
  return found.sort();
}

function connects(host: string, port: number): Promise<boolean | string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.once('timeout', () => {
      socket.destroy();
      resolve('timeout');
    });
  });
}

describe.skipIf('missing' in binary || process.platform !== 'linux')('the README recipe for a Restate server', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xagent-restate-recipe-'));
  let pid = -1;
  let worker: Worker | undefined;
  afterAll(async () => {
    await worker?.stop();
    if (pid > 0) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds ingress, admin API, node port and the worker to loopback: the machine accepts no connection to them from another address', async () => {
    const given = recipeEnv();
    expect(Object.keys(given).sort()).toEqual(
      expect.arrayContaining(['RESTATE_ADMIN__BIND_ADDRESS', 'RESTATE_BIND_ADDRESS', 'RESTATE_INGRESS__BIND_ADDRESS']),
    );
    // The recipe's ports, moved to free ones (the same port given twice moves once).
    const moved = new Map<string, string>();
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', RESTATE_DISABLE_TELEMETRY: 'true' };
    for (const [name, value] of Object.entries(given)) {
      let replaced = value;
      for (const [, port] of value.matchAll(/:(\d+)/g)) {
        if (!port) continue;
        if (!moved.has(port)) moved.set(port, String(await freePort()));
        replaced = replaced.replace(`:${port}`, `:${moved.get(port)}`);
      }
      env[name] = replaced;
    }
    const child = spawn((binary as { path: string }).path, ['--no-logo'], { cwd: dir, env, stdio: 'ignore' });
    pid = child.pid ?? -1;
    const ports = [...moved.values()].map(Number);
    await until(async () => (await Promise.all(ports.map((port) => connects('127.0.0.1', port)))).every((ok) => ok === true), 'the server');

    expect(listening(pid)).toEqual(ports.map((port) => `127.0.0.1:${port}`).sort());
    const outside = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4')?.address;
    if (outside) {
      for (const port of ports) expect({ port, outside: await connects(outside, port) }).toEqual({ port, outside: 'ECONNREFUSED' });
    }

    // The recipe's worker, `xagent serve --restate` with no --host: loopback too.
    const admin = `http://127.0.0.1:${moved.get('9070')}`;
    worker = await startWorker({ port: await freePort(), admin, env: { XAGENT_HOME: path.join(dir, 'home') } });
    expect(listening(worker.pid)).toEqual([`127.0.0.1:${worker.port}`]);
    if (outside) expect(await connects(outside, worker.port)).toBe('ECONNREFUSED');
  }, 60_000);
});
