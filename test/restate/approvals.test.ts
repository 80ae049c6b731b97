import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submit as submitTask, wait as waitForTask } from '../../src/lib/index.js';
import { taskStatus } from '../../src/restate/ingress-client.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { runCli } from '../support/run-cli.js';
import {
  freePort,
  restateBinary,
  startRestateServer,
  startWorker,
  until,
  type RestateServer,
  type Worker,
} from '../support/restate-server.js';

/**
 * Done-when 2 and 3 of issue 29: a task waiting for approval survives restarting every worker and
 * the server, and finishes after `xagent approve`; `xagent deny` ends a task with the model told
 * (with --message the model is told and goes on), as in the terminal UI; `xagent wait` prints what
 * `-p --output-format json` prints.
 */
const binary = restateBinary();
/** The tests' submissions carry trust (XAGENT_TRUST=1) and allow rules: these workers take both from a spec. */
const TRUSTING = ['--accept-from-spec', 'trust,rules'];

interface Asked {
  task: string;
  round: number;
  body: Record<string, unknown>;
}

/** Round 0: a bash call that writes a file (so the rules ask); round 1: the answer. */
function askingModel(asked: Asked[]) {
  return (body: Record<string, unknown>): FakeResponse => {
    const messages = body.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
    const first = messages[0]?.content;
    const text = typeof first === 'string' ? first : (first ?? []).map((block) => block.text ?? '').join('');
    const task = /task-(\w+)/.exec(text)?.[1] ?? '?';
    const round = messages.filter((message) => message.role === 'assistant').length;
    asked.push({ task, round, body });
    if (round === 0)
      return { content: [{ type: 'tool_use', id: `toolu_${task}`, name: 'bash', input: { command: `echo ${task} > ${task}.txt` } }] };
    return { text: `finished task-${task}` };
  };
}

describe.skipIf('missing' in binary)(`approvals that wait durably${'missing' in binary ? ` (skipped: ${binary.missing})` : ''}`, () => {
  let dir: string;
  let ws: string;
  let home: string;
  let server: RestateServer;
  let fake: FakeAnthropic;
  let worker: Worker | undefined;
  const asked: Asked[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'xagent-restate-ask-'));
    ws = path.join(dir, 'ws');
    home = path.join(dir, 'home');
    mkdirSync(ws);
    server = await startRestateServer((binary as { path: string }).path, path.join(dir, 'restate-data'));
    fake = await startFakeAnthropic([], { respond: askingModel(asked) });
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await server?.stop();
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const env = () => ({ RESTATE_INGRESS_URL: server.ingress, RESTATE_ADMIN_URL: server.admin });
  const workerEnv = () => ({ XAGENT_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, XAGENT_TRUST: '1' });
  const submit = async (task: string, ...flags: string[]) => {
    const run = await runCli(['submit', '-p', `task-${task}: write the file`, '--cwd', ws, ...flags], { env: env() });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return run.stdout.trim();
  };

  it('keeps an ask waiting through a restart of the worker and the server; approve finishes it, deny stops it with the model told', async () => {
    const port = await freePort();
    worker = await startWorker({ port, admin: server.admin, args: TRUSTING, env: workerEnv() });
    const inspectPort = await freePort();
    const ids = {
      approve: await submit('approve', '--inspect', String(inspectPort)),
      deny: await submit('deny'),
      feedback: await submit('feedback'),
    };
    for (const id of Object.values(ids)) {
      await until(async () => (await taskStatus(server.ingress, id)).waiting.length === 1, `task ${id} to ask`);
    }
    // Shown as the chart's state, with the call to answer.
    const shown = await runCli(['tasks', ids.approve], { env: env() });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('state: ask_permission.asking_user');
    expect(shown.stdout).toContain(`xagent approve ${ids.approve} toolu_approve`);
    // Followed live through the inspector's page, served by the worker on the port the task named.
    const inspector = new URL(/inspector: (\S+)/.exec(shown.stdout)?.[1] ?? 'http://nowhere');
    expect(inspector.origin).toBe(`http://127.0.0.1:${inspectPort}`);
    expect((await fetch(inspector)).status).toBe(200);
    const history = await fetch(new URL(`/api/history${inspector.search}`, inspector));
    expect(await history.text()).toContain('ask_permission.asking_user');

    // Every worker and the server go away and come back; nothing of the task lives in a process meanwhile.
    await worker.stop();
    await server.restart();
    // Its admin API answers health checks a moment before its partitions take queries.
    let listed = await runCli(['tasks', '--json'], { env: env() });
    await until(
      async () => {
        listed = await runCli(['tasks', '--json'], { env: env() });
        return listed.code === 0;
      },
      'the task list after the restart',
      () => listed.stderr,
    );
    const tasks = JSON.parse(listed.stdout) as Array<{ id: string; state: string; waiting: Array<{ tool_use_id: string }> }>;
    expect(tasks.find((task) => task.id === ids.approve)).toMatchObject({
      state: 'ask_permission.asking_user',
      waiting: [{ tool_use_id: 'toolu_approve' }],
    });
    worker = await startWorker({ port, admin: server.admin, args: TRUSTING, env: workerEnv() });

    const wrongCall = await runCli(['approve', ids.approve, 'toolu_nope'], { env: env() });
    expect(wrongCall.code).toBe(12);
    expect(wrongCall.stderr).toContain('waits for no call toolu_nope');
    expect((await runCli(['approve', ids.approve, 'toolu_approve'], { env: env() })).code).toBe(0);
    expect((await runCli(['deny', ids.deny, 'toolu_deny'], { env: env() })).code).toBe(0);
    expect((await runCli(['deny', ids.feedback, 'toolu_feedback', '--message', 'write nothing, just say so'], { env: env() })).code).toBe(
      0,
    );

    const approved = await runCli(['wait', ids.approve], { env: env() });
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ reason: 'final_answer', result: 'finished task-approve', num_turns: 2 });
    expect(readFileSync(path.join(ws, 'approve.txt'), 'utf8')).toBe('approve\n');

    const denied = await runCli(['wait', ids.deny], { env: env() });
    expect(denied.code).toBe(6);
    expect(JSON.parse(denied.stdout)).toMatchObject({
      reason: 'permission_denied',
      permission_denials: [{ tool_name: 'Bash', tool_use_id: 'toolu_deny' }],
    });
    expect(existsSync(path.join(ws, 'deny.txt'))).toBe(false);
    // The model is told, as the terminal's "no" tells it: the call's result in the transcript says so.
    const transcript = readFileSync(path.join(home, 'sessions', ids.deny, 'transcript.jsonl'), 'utf8');
    expect(transcript).toContain('"tool_use_id":"toolu_deny"');
    expect(transcript).toContain('The user did not allow this bash call.');

    const feedback = await runCli(['wait', ids.feedback], { env: env() });
    expect(JSON.parse(feedback.stdout)).toMatchObject({ reason: 'final_answer', result: 'finished task-feedback' });
    const told = asked.find((request) => request.task === 'feedback' && request.round === 1);
    expect(JSON.stringify(told?.body.messages)).toContain('write nothing, just say so');

    // The model was asked each round once: the restart replayed round 0 from the journal.
    const rounds = asked.map((request) => `${request.task}/${request.round}`);
    expect(rounds.sort()).toEqual(['approve/0', 'approve/1', 'deny/0', 'feedback/0', 'feedback/1']);
    expect(fake.rejected).toEqual([]);
  }, 240_000);

  it('prints with xagent wait the same JSON object as -p --output-format json, the session-bound fields aside', async () => {
    await worker?.stop();
    worker = await startWorker({ port: await freePort(), admin: server.admin, args: TRUSTING, env: workerEnv() });
    const allow = ['--allow', 'bash(echo shape > shape.txt)'];
    const id = (await runCli(['submit', '-p', 'task-shape: write the file', '--cwd', ws, ...allow], { env: env() })).stdout.trim();
    const waited = await runCli(['wait', id], { env: env() });
    const printed = await runCli(['-p', 'task-shape: write the file', '--output-format', 'json', '--cwd', ws, ...allow], {
      env: { XAGENT_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
    });
    expect([waited.code, printed.code]).toEqual([0, 0]);
    const a = JSON.parse(waited.stdout) as Record<string, unknown>;
    const b = JSON.parse(printed.stdout) as Record<string, unknown>;
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    // The fake's prompt cache remembers the first run, so the second reads more from it: usage and cost differ in value only.
    const bound = new Set(['session_id', 'trace_path', 'duration_ms', 'usage', 'total_cost_usd']);
    const same = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([key]) => !bound.has(key)));
    expect(same(a)).toEqual(same(b));
    expect(a.session_id).toBe(id);
  }, 120_000);

  it('lets a program submit a task and wait for it (the library: submit() and wait())', async () => {
    await worker?.stop();
    worker = await startWorker({ port: await freePort(), admin: server.admin, args: TRUSTING, env: workerEnv() });
    const id = await submitTask('task-library: write the file', {
      cwd: ws,
      allow: ['bash(echo library > library.txt)'],
      restateUrl: server.ingress,
    });
    const result = await waitForTask(id, { restateUrl: server.ingress });
    expect(result).toMatchObject({ type: 'result', reason: 'final_answer', session_id: id, result: 'finished task-library' });
    expect(readFileSync(path.join(ws, 'library.txt'), 'utf8')).toBe('library\n');
  }, 120_000);
});
