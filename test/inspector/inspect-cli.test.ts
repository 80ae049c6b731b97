import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InspectorRecord } from '../../src/inspector/records.js';
import { tempDir, writeJson } from '../support/engine-harness.js';
import { rawGet } from './http-client.js';
import { CLI } from '../support/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

beforeAll(() => {
  // `npm test` builds first; a lone `vitest run` of this file may find no dist yet.
  if (!existsSync(CLI)) spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
}, 120_000);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Started {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(args: string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}

async function waitFor(what: () => RegExpMatchArray | null, child: Started): Promise<RegExpMatchArray> {
  for (let k = 0; k < 300; k++) {
    const match = what();
    if (match) return match;
    if (child.child.exitCode !== null) throw new Error(`exited early:\n${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out; stderr:\n${child.stderr()}`);
}

const URL_LINE = /Inspector: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+)/;

async function history(port: number, token: string): Promise<InspectorRecord[]> {
  const response = await rawGet(port, '/api/history', { 'x-inspector-token': token });
  expect(response.status).toBe(200);
  return JSON.parse(response.body) as InspectorRecord[];
}

describe('xagent --inspect and xagent inspect', () => {
  it('-p --inspect prints the URL, serves the run, stays up after the task saying so, and exits on Ctrl-C with the task exit code', async () => {
    const home = tempDir();
    const script = writeJson(path.join(home, 'script.json'), {
      responses: [
        { delay_ms: 200, content: [{ type: 'tool_use', name: 'read_file', input: { path: 'package.json', limit: 2 } }] },
        { delay_ms: 200, text: 'Read.' },
      ],
    });
    const run = start(['-p', '--inspect', 'read the manifest', '--model-script', script, '--max-turns', '4'], {
      XAGENT_HOME: home,
      ANTHROPIC_API_KEY: '',
    });
    const [, port, token] = await waitFor(() => run.stderr().match(URL_LINE), run);
    await waitFor(() => run.stderr().match(/Press Ctrl-C to exit/), run);
    const records = await history(Number(port), token!);
    expect(records[0]).toMatchObject({ kind: 'meta', mode: 'live', limits: { maxTurns: 4 }, prompt: 'read the manifest' });
    expect(records.filter((r) => r.kind === 'tool_start')).toMatchObject([{ call: { name: 'read_file' } }]);
    expect(records.at(-1)).toMatchObject({ kind: 'result', reason: 'final_answer', stop_message: 'Read.' });
    expect((await rawGet(Number(port), '/api/history')).status).toBe(403);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it('xagent inspect <session-id> replays a recorded session without a model or a key', async () => {
    const home = tempDir();
    const script = writeJson(path.join(home, 'script.json'), {
      responses: [{ content: [{ type: 'tool_use', name: 'read_file', input: { path: 'nope.txt' } }] }, { text: 'No such file.' }],
    });
    const recorded = spawnSync(process.execPath, [CLI, '-p', 'read nope.txt', '--model-script', script, '--cwd', home], {
      env: { ...process.env, XAGENT_HOME: home },
      encoding: 'utf8',
    });
    expect(recorded.status).toBe(0);
    const [sessionId] = readdirSync(path.join(home, 'sessions'));
    // A unique prefix of the id is enough, as for --resume.
    const replay = start(['inspect', sessionId!.slice(0, 8)], { XAGENT_HOME: home, ANTHROPIC_API_KEY: '' });
    const [, port, token] = await waitFor(() => replay.stderr().match(URL_LINE), replay);
    const records = await history(Number(port), token!);
    expect(records[0]).toMatchObject({ kind: 'meta', mode: 'replay', session_id: sessionId });
    expect(records.filter((r) => r.kind === 'tool_result')).toMatchObject([{ call: { name: 'read_file' }, result: { is_error: true } }]);
    expect(records.at(-1)).toMatchObject({ kind: 'result', reason: 'final_answer' });
    replay.child.kill('SIGINT');
    expect(await replay.exited).toBe(0);
  });

  it('xagent inspect on an unknown session is a usage error that says where it looked', () => {
    const home = tempDir();
    const result = spawnSync(process.execPath, [CLI, 'inspect', 'no-such-session'], {
      env: { ...process.env, XAGENT_HOME: home },
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`no recorded session "no-such-session"`);
    expect(result.stderr).toContain(path.join(home, 'sessions'));
  });
});
