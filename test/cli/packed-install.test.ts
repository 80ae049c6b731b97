import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

const api = useFakeApi();

// The bundle is what runs: packed (without rebuilding: `npm test` built it), installed globally
// elsewhere from npm's cache, and run with the tsc output (dist/src) deleted from the install.
describe('the packed tarball, installed with npm install -g', () => {
  it('runs the bundle: --version and a -p task against the fake API, without dist/src', async () => {
    const packDir = tempDir('xagent-pack-');
    const prefix = tempDir('xagent-prefix-');
    const packed = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], root)) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    const shipped = packed[0]!.files.map((f) => f.path);
    expect(shipped).toContain('dist/bin/xagent.js');
    expect(shipped.filter((f) => f.startsWith('dist/bench/') || f.startsWith('dist/scripts/'))).toEqual([]);
    npm(
      ['install', '-g', path.join(packDir, packed[0]!.filename), '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund'],
      packDir,
    );

    const installed = path.join(prefix, 'lib/node_modules', (JSON.parse(readFileSync('package.json', 'utf8')) as { name: string }).name);
    const bin = path.join(prefix, 'bin/xagent');
    expect(realpathSync(bin)).toBe(path.join(realpathSync(installed), 'dist/bin/xagent.js'));
    rmSync(path.join(installed, 'dist/src'), { recursive: true, force: true });

    const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
    expect(version).toBe((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version);

    const env = await api.start([{ text: 'Hello from the installed bundle.' }]);
    const run = await runCli(['-p', 'say hello', '--cwd', api.workspace], { env, cli: bin });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('Hello from the installed bundle.\n');
    expect(run.code).toBe(0);
  }, 180_000);
});
