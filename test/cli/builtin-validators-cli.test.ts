import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { toolResultsIn } from '../lib/lib-support.js';

const api = useFakeApi();
const probe = fileURLToPath(new URL('../support/ajv-probe.cjs', import.meta.url));

/** The ajv files each process run with the probe loaded, one list per process. */
function ajvLoadedBy(dir: string): string[][] {
  return readdirSync(dir).map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as string[]);
}

describe('a session that calls only built-in tools', () => {
  it('validates their input without ever loading ajv (the validators were compiled at build time)', async () => {
    writeFileSync(path.join(api.workspace, 'notes.txt'), 'first line\n');
    const env = await api.start([
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }] },
      // minLength: the generated code's one runtime helper (ucs2length) must be in the bundle.
      { content: [{ type: 'tool_use', id: 'toolu_2', name: 'glob', input: { pattern: '*.txt' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_3', name: 'read_file', input: { path: 42, lines: 3 } }] },
      { content: [{ type: 'tool_use', id: 'toolu_4', name: 'glob', input: { pattern: '' } }] },
      { text: 'Done.' },
    ]);
    const probeDir = tempDir('ajv-probe-');
    const run = await runCli(['-p', 'read the notes', '--cwd', api.workspace], {
      env: { ...env, NODE_OPTIONS: `--require ${probe}`, AJV_PROBE_DIR: probeDir },
    });
    expect(run.code).toBe(0);
    const results = toolResultsIn(api.fake.requests[4]);
    expect(results.map((r) => [r.is_error ?? false, r.content])).toEqual([
      [false, expect.stringContaining('first line')],
      [false, expect.stringContaining('notes.txt')],
      [
        true,
        'Invalid input for read_file: input: unexpected property "lines" (allowed: path, offset, limit); input.path: must be string (got number 42)',
      ],
      [true, 'Invalid input for glob: input.pattern: must NOT have fewer than 1 characters (got "")'],
    ]);
    const loaded = ajvLoadedBy(probeDir);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.flat()).toEqual([]);
  });

  it('(the probe is real: it reports ajv required from CommonJS or imported from an ES module)', () => {
    const probeDir = tempDir('ajv-probe-');
    const env = { ...process.env, NODE_OPTIONS: `--require ${probe}`, AJV_PROBE_DIR: probeDir };
    const options = { cwd: fileURLToPath(new URL('../..', import.meta.url)), env, encoding: 'utf8' } as const;
    expect(spawnSync(process.execPath, ['-e', "require('ajv')"], options).status).toBe(0);
    expect(spawnSync(process.execPath, ['--input-type=module', '-e', "await import('ajv')"], options).status).toBe(0);
    const loaded = ajvLoadedBy(probeDir);
    expect(loaded).toHaveLength(2);
    for (const files of loaded) expect(files).toContainEqual(expect.stringMatching(/node_modules\/ajv\/dist\/ajv\.js$/));
  });
});
