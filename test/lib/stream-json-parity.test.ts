import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { query } from '../../src/lib/index.js';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { jsonLines, runCli } from '../support/run-cli.js';
import { collect } from './lib-support.js';

const api = useFakeApi();

/** What differs between two runs of one script: when, how long, which session. */
const VARYING = new Set(['ts', 'session_id', 'duration_ms', 'trace_path']);

function normalised(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalised);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, VARYING.has(key) ? `<${key}>` : normalised(v)]));
}

const SCRIPT: FakeResponse[] = [
  {
    content: [
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } },
    ],
  },
  { content: [{ type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 42 } }] },
  { text: 'It says hi.' },
];

describe('the library yields what --output-format stream-json prints', () => {
  it('the same events, in the same order and shapes, for the same script (times and ids aside)', async () => {
    writeFileSync(path.join(api.workspace, 'notes.txt'), 'hi\n');
    const cliEnv = await api.start(SCRIPT);
    const cli = await runCli(['-p', 'read notes.txt', '--cwd', api.workspace, '--output-format', 'stream-json'], { env: cliEnv });
    expect(cli.code, cli.stderr).toBe(0);

    const libEnv = await api.start(SCRIPT);
    const lib = await collect(query('read notes.txt', { cwd: api.workspace, env: libEnv, stderr: null }));

    const printed = jsonLines(cli.stdout);
    expect(printed.map((e) => e.type)).toContain('tool_result');
    expect(printed.at(-1)).toMatchObject({ type: 'result', reason: 'final_answer' });
    expect(normalised(lib.events)).toStrictEqual(normalised(printed));
  }, 60_000);
});
