import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { query } from '../../src/lib/index.js';
import { collect } from '../lib/lib-support.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { assertBuilt } from '../sessions/cli.js';
import { messagesOf, PERMISSIVE, PROMPTS, runThreeTasks, snapshot, THREE_TASKS } from './scenario.js';

beforeAll(assertBuilt);

const api = useFakeApi();
/** Every file of a session folder, byte for byte. */
const sessionFiles = (id: string) => snapshot(path.join(api.home, 'sessions', id));

describe('fork', () => {
  it('xagent fork --to N prints the new id; its first request carries exactly the prefix; the original is untouched', async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    const original = sessionFiles(ran.id);
    const forked = await runCli(['fork', ran.id, '--to', '2'], { env, cwd: api.workspace });
    expect(forked.code, forked.stderr).toBe(0);
    const id = forked.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(id).not.toBe(ran.id);

    api.fake.push({ text: 'A different second task.' });
    const next = await runCli(['-p', PROMPTS[1], '--resume', id, ...PERMISSIVE], { env, cwd: api.workspace });
    expect(next.code, next.stderr).toBe(0);
    expect(JSON.parse(next.stdout)).toMatchObject({ session_id: id });
    expect(messagesOf(api.fake, api.fake.requests.length - 1)).toEqual(messagesOf(api.fake, ran.firstRequest[1]!));
    expect(sessionFiles(ran.id)).toEqual(original);
    // A fork leaves every file where the last task left it: it has no business with the workspace.
    expect(snapshot(api.workspace)).toEqual(ran.before[3]);
    // Its log says where it came from.
    const first = JSON.parse(readFileSync(path.join(api.home, 'sessions', id, 'trace.jsonl'), 'utf8').split('\n')[0]!);
    expect(first).toMatchObject({ event: 'fork', from_session: ran.id, at: 2, session_id: id });
  });

  it('--resume <session> --fork-session continues the whole conversation in a new session', async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    const original = sessionFiles(ran.id);
    api.fake.push({ text: 'Forked and answered.' });
    const next = await runCli(['-p', 'and now?', '--resume', ran.id, '--fork-session', ...PERMISSIVE], { env, cwd: api.workspace });
    expect(next.code, next.stderr).toBe(0);
    const id = (JSON.parse(next.stdout) as { session_id: string }).session_id;
    expect(id).not.toBe(ran.id);
    expect(next.stderr).toContain(`forked session ${ran.id} as ${id}`);
    const sent = messagesOf(api.fake, api.fake.requests.length - 1);
    const lastOfOriginal = messagesOf(api.fake, ran.firstRequest[2]! + 3);
    expect(sent.slice(0, lastOfOriginal.length)).toEqual(lastOfOriginal);
    expect(sessionFiles(ran.id)).toEqual(original);
    expect(readdirSync(path.join(api.home, 'sessions')).sort()).toEqual([ran.id, id].sort());
  });

  it('--fork-session without a session to fork is a usage error', async () => {
    const env = await api.start([]);
    const run = await runCli(['-p', 'hi', '--fork-session'], { env, cwd: api.workspace });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--fork-session needs --resume <session> or --continue');
  });

  it('query({ resume, forkSession, at }) sends exactly the prefix and leaves the original session as it was', async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    const original = sessionFiles(ran.id);
    api.fake.push({ text: 'From the library.' });
    const { result } = await collect(
      query(PROMPTS[1], { cwd: api.workspace, env, resume: ran.id, forkSession: true, at: 2, stderr: null, readSettings: false }),
    );
    expect(result.reason).toBe('final_answer');
    expect(result.session_id).not.toBe(ran.id);
    expect(messagesOf(api.fake, api.fake.requests.length - 1)).toEqual(messagesOf(api.fake, ran.firstRequest[1]!));
    expect(sessionFiles(ran.id)).toEqual(original);
  });

  it('query() refuses `at` without forkSession: a library call never rewinds a session in place', async () => {
    await expect(collect(query('x', { resume: 'abc', at: 2 }))).rejects.toThrow('at needs forkSession: true');
  });
});
