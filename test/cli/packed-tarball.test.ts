import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { EXAMPLE_SCRIPT, runExample } from '../lib/example-run.js';

// The package as users get it: packed once (without rebuilding: `npm test` built dist), then
// installed globally (the CLI on the PATH) and into a project (the library), from npm's cache.
const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string };
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
const INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];

const api = useFakeApi();
let tarball = '';
let shipped: string[] = [];

beforeAll(() => {
  const packDir = tempDir('xagent-pack-');
  const packed = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], root)) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  expect(packed[0]!.filename).toMatch(/^xagent-statechart-\d+\.\d+\.\d+\.tgz$/);
  tarball = path.join(packDir, packed[0]!.filename);
  shipped = packed[0]!.files.map((f) => f.path);
}, 120_000);

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

describe('the packed tarball', () => {
  it('ships the bundles and the type declarations, not the tsc output, benches or build scripts', () => {
    expect(shipped).toContain('dist/bin/xagent.js');
    expect(shipped).toContain('dist/lib/index.js');
    expect(shipped).toContain('dist/src/lib/index.d.ts');
    expect(shipped).toContain('dist/machines/types.d.ts');
    expect(shipped.filter((f) => f.startsWith('dist/bench/') || f.startsWith('dist/scripts/'))).toEqual([]);
    // The bundle is what runs: no module of tsc's output is in the package to run instead.
    expect(shipped.filter((f) => /^dist\/(src|machines)\/.*\.js(\.map)?$/.test(f))).toEqual([]);
    // Source maps of the bundle are 12 MB and Node reads none without --enable-source-maps.
    expect(shipped.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(shipped).toContain('inspector/index.html');
  });

  it('installed with npm install -g: xagent on the PATH runs the bundle (--version, -p tasks, inspect), from another folder, without dist/src', {
    timeout: 240_000,
  }, async () => {
    const prefix = tempDir('xagent-prefix-');
    npm(['install', '-g', tarball, '--prefix', prefix, ...INSTALL_FLAGS], path.dirname(tarball));
    const installed = path.join(prefix, 'lib/node_modules', pkg.name);
    const bin = path.join(prefix, 'bin', 'xagent');
    expect(realpathSync(bin)).toBe(path.join(realpathSync(installed), 'dist/bin/xagent.js'));
    rmSync(path.join(installed, 'dist/src'), { recursive: true, force: true });
    const elsewhere = api.workspace;

    const version = await run(bin, ['--version'], {}, elsewhere);
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
    expect(pkg.version).toBe('0.1.0');

    const bundleEnv = await api.start([{ text: 'Hello from the installed bundle.' }]);
    const plain = await runCli(['-p', 'say hello', '--cwd', api.workspace], { env: bundleEnv, cli: bin });
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toBe('Hello from the installed bundle.\n');
    expect(plain.code).toBe(0);

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

  it('installed into a project: the example imports the library by name and runs against the API, and the import typechecks', {
    timeout: 240_000,
  }, async () => {
    const project = tempDir('xagent-project-');
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'uses-xagent', private: true, type: 'module' }));
    npm(['install', tarball, ...INSTALL_FLAGS], project);
    copyFileSync(path.join(root, 'examples/custom-tool/index.mjs'), path.join(project, 'example.mjs'));

    const env = await api.start(EXAMPLE_SCRIPT);
    await runExample({ file: path.join(project, 'example.mjs'), workspace: api.workspace, env, fake: () => api.fake });

    // A TypeScript consumer: the exports' types resolve from the shipped .d.ts files alone.
    writeFileSync(
      path.join(project, 'consumer.ts'),
      [
        "import { query, tool, UsageError, type QueryResult, type StreamJsonEvent } from 'xagent-statechart';",
        "const dice = tool<{ sides: number }>({ name: 'roll_dice', description: 'Roll a die.', inputSchema: { type: 'object' }, execute: ({ sides }) => String(sides) });",
        'export async function main(): Promise<QueryResult | undefined> {',
        "  for await (const event of query('roll', { tools: [dice], maxTurns: 2, inspect: true, canUseTool: async () => ({ behavior: 'deny', message: 'no' }) })) {",
        '    const seen: StreamJsonEvent = event;',
        "    if (seen.type === 'text_delta') process.stdout.write(seen.text);",
        "    if (event.type === 'result') return event;",
        '  }',
        '  return undefined;',
        '}',
        'export const isUsage = (e: unknown) => e instanceof UsageError;',
        '// @ts-expect-error maxTurns is a number',
        "query('roll', { maxTurns: '2' });",
        '// @ts-expect-error execute returns a string or { content, isError }',
        "tool({ name: 'x', description: 'x', inputSchema: {}, execute: () => 42 });",
      ].join('\n'),
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          // Node's types come from the repository (the project installs none).
          typeRoots: [path.join(root, 'node_modules/@types')],
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    let output = '';
    try {
      output = execFileSync(process.execPath, [tsc, '-p', path.join(project, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}` || String(error);
    }
    expect(output).toBe('');
  });
});
