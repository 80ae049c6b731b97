import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';

const api = useFakeApi();
const probe = fileURLToPath(new URL('../fixtures/loaded-modules-probe.cjs', import.meta.url));

describe('the model request path', () => {
  // undici (behind Node 20's Headers, Response, FormData and fetch globals) costs ~20 ms to load
  // before the first request, web streams ~2 ms; the bundle gives the SDK LiteHeaders and a tag
  // check for stream bodies, and nodeHttpFetch answers with an HttpResponse over node:http, so a
  // task with tool rounds loads neither (issue 17).
  it('runs a task with a tool round without loading undici or web streams', async () => {
    const env = await api.start([
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'notes.txt' } }] },
      { text: 'done' },
    ]);
    writeFileSync(path.join(api.workspace, 'notes.txt'), 'a note\n');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'xagent-modules-')), 'loaded.txt');
    const run = await runCli(['-p', 'read the notes', '--cwd', api.workspace], {
      env: { ...env, NODE_OPTIONS: `--require ${probe}`, LOADED_MODULES_FILE: file },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('done');
    expect(api.fake.requests).toHaveLength(2);
    const loaded = readFileSync(file, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule http');
    expect(loaded.filter((m) => m.includes('undici') || m.includes('webstreams/readablestream'))).toEqual([]);
  });
});
