import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { chartGraph } from '../../machines/chart-graph.js';
import { queryEngine } from '../../machines/query-engine.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { jsonLines, runCli } from '../support/run-cli.js';

const corePath = fileURLToPath(new URL('../../dist/bin/core.cjs', import.meta.url));

const api = useFakeApi();

/** The code cache files in this test's XAGENT_HOME. */
function cacheFiles(): string[] {
  const dir = path.join(api.home, 'cache');
  return existsSync(dir) ? readdirSync(dir).map((name) => path.join(dir, name)) : [];
}

// `-p` runs go through dist/bin/core.cjs and V8's code cache (src/startup/compiled-core.ts): the first
// run writes the cache into $XAGENT_HOME/cache, later runs read it, and a cache V8 refuses is
// only a slower start, never a wrong one.
describe('the compiled core of -p runs', () => {
  it('writes its code cache on the first run and reads it on the next, with the same answers', async () => {
    const env = await api.start([{ text: 'first answer' }, { text: 'second answer' }]);
    const first = await runCli(['-p', 'one', '--cwd', api.workspace], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('first answer\n');
    const files = cacheFiles();
    expect(files).toHaveLength(1);
    expect(path.basename(files[0]!)).toMatch(new RegExp(`^core-[0-9a-f]{16}-${process.version}-${process.arch}\\.v8$`));
    const written = statSync(files[0]!);
    expect(written.size).toBeGreaterThan(100_000);

    const second = await runCli(['-p', 'two', '--cwd', api.workspace], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('second answer\n');
    // Accepted by V8, so not written again.
    expect(statSync(files[0]!).mtimeMs).toBe(written.mtimeMs);
    expect(api.fake.rejected).toEqual([]);
  });

  it('runs right from a cache V8 refuses (garbage, a truncated file) and writes a good one', async () => {
    const env = await api.start([{ text: 'warm' }, { text: 'after garbage' }, { text: 'after truncation' }]);
    expect((await runCli(['-p', 'warm up', '--cwd', api.workspace], { env })).code).toBe(0);
    const [file] = cacheFiles();
    const good = readFileSync(file!);

    writeFileSync(file!, Buffer.from('not a V8 code cache at all'.repeat(100)));
    const afterGarbage = await runCli(['-p', 'go', '--cwd', api.workspace], { env });
    expect(afterGarbage.code).toBe(0);
    expect(afterGarbage.stdout).toBe('after garbage\n');
    expect(readFileSync(file!).subarray(0, 16)).toEqual(good.subarray(0, 16));

    writeFileSync(file!, good.subarray(0, good.length >> 1));
    const afterTruncation = await runCli(['-p', 'go', '--cwd', api.workspace], { env });
    expect(afterTruncation.code).toBe(0);
    expect(afterTruncation.stdout).toBe('after truncation\n');
    expect(readFileSync(file!).length).toBeGreaterThan(good.length >> 1);
  });

  it('keeps the caches of four versions at most when it writes one', async () => {
    const env = await api.start([{ text: 'ok' }]);
    const dir = path.join(api.home, 'cache');
    mkdirSync(dir, { recursive: true });
    const old = [
      'core-0000000000000001-v1.0.0-x64.v8',
      'core-0000000000000002-v1.0.0-x64.v8',
      'core-0000000000000003-v1.0.0-x64.v8',
      'core-0000000000000004-v1.0.0-x64.v8',
    ];
    old.forEach((name, i) => {
      writeFileSync(path.join(dir, name), 'an older version');
      utimesSync(path.join(dir, name), 1_000_000 + i, 1_000_000 + i);
    });
    writeFileSync(path.join(dir, 'unrelated.txt'), 'kept');
    expect((await runCli(['-p', 'go', '--cwd', api.workspace], { env })).code).toBe(0);
    const left = readdirSync(dir).sort();
    expect(left).toHaveLength(5);
    expect(left).toContain('unrelated.txt');
    expect(left).not.toContain(old[0]);
    expect(left.filter((name) => name.startsWith(`core-`) && name.includes(process.version))).toHaveLength(1);
  });

  it('keeps no cache with XAGENT_CODE_CACHE=0', async () => {
    const env = await api.start([{ text: 'no cache' }]);
    const run = await runCli(['-p', 'go', '--cwd', api.workspace], { env: { ...env, XAGENT_CODE_CACHE: '0' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('no cache\n');
    expect(cacheFiles()).toEqual([]);
  });

  it("is one byte a character, and already CommonJS's module wrapper, so V8 holds one 1-byte copy of its source", () => {
    // A single non-ASCII character made V8 hold the ~1 MB core as a 2-byte string, and
    // Module.wrap(source) a second copy beside it: ~4 MB of a one-answer run's 64 MB.
    const core = readFileSync(corePath, 'latin1');
    expect(core.search(/[^\x00-\x7f]/)).toBe(-1);
    expect(core.startsWith('(function (exports, require, module, __filename, __dirname) {')).toBe(true);
  });

  it('records in task_start the fingerprint of the chart it was built from, computed at build time', async () => {
    const env = await api.start([{ text: 'ok' }]);
    const run = await runCli(['-p', 'hi', '--cwd', api.workspace, '--output-format', 'json'], { env });
    const [result] = jsonLines(run.stdout) as Array<{ trace_path: string }>;
    const [start] = jsonLines(readFileSync(result!.trace_path, 'utf8'));
    expect(start).toMatchObject({ event: 'task_start', chart: chartGraph(queryEngine).fingerprint });
    // Substituted by the build: a run does not walk and hash the chart before its first task.
    expect(readFileSync(corePath, 'latin1')).not.toContain('XAGENT_CHART_FINGERPRINT');
  });
});
