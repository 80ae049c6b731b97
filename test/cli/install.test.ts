import { execFileSync, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { useFakeApi } from '../support/fake-api-env.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The packed tarball, installed globally into a temporary prefix: what `npm install -g` gives a user. */
function installPacked(): { bin: string } {
  const packDir = tempDir('xagent-pack-');
  // The suite has built dist already; --ignore-scripts packs it as it is instead of building again.
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: ROOT, stdio: 'pipe' });
  const tarball = readdirSync(packDir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball to ${packDir}`);
  expect(tarball).toMatch(/^xagent-statechart-\d+\.\d+\.\d+\.tgz$/);
  const prefix = tempDir('xagent-prefix-');
  execFileSync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', path.join(packDir, tarball)], {
    cwd: packDir,
    stdio: 'pipe',
  });
  return { bin: path.join(prefix, 'bin', 'xagent') };
}

/** Async, so the fake API in this process can answer while the CLI waits for it. */
function run(
  bin: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(bin, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: tempDir(), NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('the packed package, installed globally', () => {
  const api = useFakeApi();

  it('puts xagent on the PATH: --version, a -p task against the API and inspect, all from another folder', {
    timeout: 240_000,
  }, async () => {
    const { bin } = installPacked();
    const elsewhere = api.workspace;
    const version = await run(bin, ['--version'], {}, elsewhere);
    expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n' });

    const env = await api.start([{ text: 'Hello from the installed xagent.' }]);
    const task = await run(bin, ['-p', 'say hello', '--output-format', 'json'], env, elsewhere);
    expect(task.code, task.stderr).toBe(0);
    const result = JSON.parse(task.stdout) as { text: string; session_id: string };
    expect(result.text).toBe('Hello from the installed xagent.');

    // inspect serves the recorded session until Ctrl-C; its page must load from the installed files.
    const child = spawn(bin, ['inspect', result.session_id], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH ?? '', HOME: tempDir(), ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', () => {
          const match = /Inspector: (\S+)/.exec(stderr);
          if (match) resolve(match[1]!);
        });
        child.on('exit', () => reject(new Error(`inspect exited: ${stderr}`)));
      });
      const page = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        get(url, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        }).on('error', reject);
      });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<html');
    } finally {
      child.kill('SIGINT');
    }
    expect(await new Promise((resolve) => child.on('exit', (code) => resolve(code)))).toBe(0);
  });
});
