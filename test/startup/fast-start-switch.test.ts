import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';

const api = useFakeApi();

/** One `-p` run that reads a file and answers, with the start-up machinery on or off. */
async function runWith(fastStart: '1' | '0') {
  const env = await api.start([
    { content: [{ type: 'tool_use', id: 'toolu_1', name: 'list', input: { path: '.' } }] },
    { text: 'Listed.' },
  ]);
  const run = await runCli(['-p', 'list the files', '--cwd', api.workspace, '--output-format', 'json'], {
    env: { ...env, XAGENT_FAST_START: fastStart },
  });
  const cache = path.join(api.home, 'cache');
  return {
    code: run.code,
    result: JSON.parse(run.stdout) as { result: string; num_turns: number; reason: string },
    codeCaches: existsSync(cache) ? readdirSync(cache).filter((f) => f.endsWith('.v8')) : [],
    headers: api.fake.requests.map((r) => r.headers),
  };
}

// Issue 25: the start-up machinery (compiled core with its V8 code cache, the node:http fetch and the
// SDK's stand-in globals) has one switch, XAGENT_FAST_START=0, and the CLI works the same both ways.
describe('XAGENT_FAST_START, the one switch for the start-up machinery', () => {
  it('on (the default): a -p run starts from the compiled core, which leaves its V8 code cache, and answers', async () => {
    const on = await runWith('1');
    expect(on.code).toBe(0);
    expect(on.result).toMatchObject({ result: 'Listed.', num_turns: 2, reason: 'final_answer' });
    expect(on.codeCaches).toHaveLength(1);
    // Node's own fetch (undici) adds the fetch metadata header; ours over node:http does not.
    expect(on.headers.every((h) => h['sec-fetch-mode'] === undefined)).toBe(true);
  });

  it('off: the same run as plain ES modules on Node fetch, with the same answer and no code cache', async () => {
    const off = await runWith('0');
    expect(off.code).toBe(0);
    expect(off.result).toMatchObject({ result: 'Listed.', num_turns: 2, reason: 'final_answer' });
    expect(off.codeCaches).toEqual([]);
    expect(off.headers.every((h) => h['sec-fetch-mode'] === 'cors')).toBe(true);
  });
});
