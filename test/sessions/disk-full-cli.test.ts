import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { CLI } from '../support/run-cli.js';
import { assertBuilt } from './cli.js';

/**
 * Issue 38: a full disk under XAGENT_HOME ends the task with a named error and exit 9, not a stack
 * trace; once there is room, `--continue` resumes the session. The disk is a real 160 KB tmpfs,
 * mounted in a private mount namespace (`unshare`, as an unprivileged user too), so nothing
 * outlives the test.
 */

beforeAll(assertBuilt);
const api = useFakeApi();

const canMount = (() => {
  try {
    execFileSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs /mnt'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
})();

const use = (name: string, input: Record<string, unknown>): FakeResponse => ({ content: [{ type: 'tool_use', name, input }] });

describe.skipIf(!canMount)('issue 38: a full disk under the session', () => {
  it('exits 9 with a clear message, keeps the session, and --continue resumes it once there is room', async () => {
    // A tool result of ~30 KB cannot fit in the ~25 KB the filler leaves of the 160 KB disk.
    writeFileSync(path.join(api.workspace, 'big.txt'), `${'abcdefghij'.repeat(7).concat('\n').repeat(1500)}`);
    const env = await api.start([use('read_file', { path: 'big.txt' }), { text: 'read it' }, { text: 'resumed fine' }]);
    const home = path.join(tempDir('xagent-disk-'), 'home');
    mkdirSync(home);
    const argv = (args: string[]) => [process.execPath, CLI, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
    // One namespace for both runs: the first fills the disk, the filler goes, the second resumes.
    const script = [
      `mount -t tmpfs -o size=160k tmpfs "$XAGENT_HOME"`,
      `head -c 135000 /dev/zero > "$XAGENT_HOME/filler"`,
      `${argv(['-p', 'read big.txt', '--allow', 'read_file'])} > "$OUT/first.out" 2> "$OUT/first.err"; echo $? > "$OUT/first.code"`,
      `cp -r "$XAGENT_HOME/sessions" "$OUT/after-first"`,
      `rm "$XAGENT_HOME/filler"`,
      `${argv(['-p', 'go on', '--continue', '--output-format', 'json'])} > "$OUT/second.out" 2> "$OUT/second.err"; echo $? > "$OUT/second.code"`,
    ].join('\n');
    const out = tempDir('xagent-disk-out-');
    // Not spawnSync: the fake API answers from this process's event loop.
    const child = spawn('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script], {
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', XAGENT_TRUST: '1', ...env, XAGENT_HOME: home, OUT: out },
      cwd: api.workspace,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ran = { status: await new Promise<number | null>((resolve) => child.on('close', resolve)), stderr };
    expect(ran.status, ran.stderr).toBe(0);
    const read = (name: string) => readFileSync(path.join(out, name), 'utf8');

    expect(read('first.code').trim()).toBe('9');
    expect(read('first.err')).toMatch(
      /xagent: the session could not be written \((transcript|trace|audit)\.jsonl: ENOSPC, no space left on the device\), so the task stopped/,
    );
    expect(read('first.err')).toContain('--continue');
    expect(read('first.err')).not.toMatch(/\n\s+at /);

    expect(read('second.code').trim(), read('second.err')).toBe('0');
    const result = JSON.parse(read('second.out')) as { session_id: string; text: string };
    expect(result.text).toBe('resumed fine');
    expect(read('first.err')).toContain(result.session_id);
    // The resumed request carries the first task's prompt and a result for its tool call (pairing kept).
    const last = api.fake.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(JSON.stringify(last.messages[0])).toContain('read big.txt');
    expect(JSON.stringify(last.messages)).toContain('tool_result');
    // The first run left its session on the full disk: meta.json says which it is.
    expect(readFileSync(path.join(out, 'after-first', result.session_id, 'meta.json'), 'utf8')).toContain(result.session_id);
  }, 90_000);
});
