import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RestateError } from '../../src/restate/errors.js';
import { taskStatus, waitForTask } from '../../src/restate/ingress-client.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { newIdentityKey, requestWorker } from '../support/restate-identity.js';
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
 * Issue 41, durable tasks you can deploy, against a real Restate server that signs its requests:
 * a worker with --identity-key refuses what the server did not sign; a spec cannot turn on trust,
 * bypassPermissions or allow rules without the worker's --accept-from-spec; a spec that is not one
 * ends at once, named; approvals name the approver and may need the token given at submit; two
 * workers with different settings files decide a replayed task alike; a command dies with the
 * worker that started it.
 */
const binary = restateBinary();

/** What the model does, by task name (`task-<name>` in the prompt) and round. */
type Script = (round: number) => FakeResponse;

describe.skipIf('missing' in binary)(`durable tasks you can deploy${'missing' in binary ? ` (skipped: ${binary.missing})` : ''}`, () => {
  let dir: string;
  let ws: string;
  let server: RestateServer;
  let fake: FakeAnthropic;
  let publicKey: string;
  const scripts = new Map<string, Script>();
  const asked: Array<{ task: string; round: number }> = [];
  let onAsk: (task: string, round: number) => void = () => {};
  const workers: Worker[] = [];
  /** The conversations the model was sent for task-resumed. */
  const resumedWith: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'xagent-restate-deploy-'));
    ws = path.join(dir, 'ws');
    mkdirSync(ws);
    publicKey = newIdentityKey(path.join(dir, 'identity.pem'));
    server = await startRestateServer((binary as { path: string }).path, path.join(dir, 'restate-data'), {
      RESTATE_REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE: path.join(dir, 'identity.pem'),
    });
    fake = await startFakeAnthropic([], {
      respond: (body) => {
        const messages = body.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
        const textOf = (message: (typeof messages)[number]) =>
          typeof message.content === 'string' ? message.content : message.content.map((block) => block.text ?? '').join('');
        // The task is the latest prompt that names one (a resumed task's conversation holds its predecessor's too).
        const task =
          messages
            .map((message) => /task-(\w+)/.exec(message.role === 'user' ? textOf(message) : '')?.[1])
            .filter(Boolean)
            .at(-1) ?? '?';
        const round = messages.filter((message) => message.role === 'assistant').length;
        asked.push({ task, round });
        if (task === 'resumed') resumedWith.push(messages.map(textOf).join('\n'));
        onAsk(task, round);
        return scripts.get(task)?.(round) ?? { text: `finished task-${task}` };
      },
    });
  }, 120_000);

  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    onAsk = () => {};
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  /** A worker with its own XAGENT_HOME (and settings.json there, if given); registered last, so new tasks go to it. */
  const worker = async (name: string, options: { args?: string[]; settings?: unknown; port?: number } = {}) => {
    const home = path.join(dir, `home-${name}`);
    mkdirSync(home, { recursive: true });
    if (options.settings !== undefined) writeFileSync(path.join(home, 'settings.json'), JSON.stringify(options.settings));
    const started = await startWorker({
      port: options.port ?? (await freePort()),
      admin: server.admin,
      args: options.args ?? [],
      env: { XAGENT_HOME: home, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
    });
    workers.push(started);
    return { worker: started, home };
  };
  // No XAGENT_TRUST from the tests' default environment: a submission carries trust only when a test asks.
  const env = () => ({ RESTATE_INGRESS_URL: server.ingress, RESTATE_ADMIN_URL: server.admin, XAGENT_TRUST: undefined });
  const submit = async (task: string, ...flags: string[]) => {
    const run = await runCli(['submit', '-p', `task-${task}: do it`, '--cwd', ws, ...flags], { env: env() });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return run.stdout.trim();
  };
  const bash = (id: string, command: string): FakeResponse => ({ content: [{ type: 'tool_use', id, name: 'bash', input: { command } }] });
  const traceOf = (home: string, id: string) => readFileSync(path.join(home, 'sessions', id, 'trace.jsonl'), 'utf8');

  it('with --identity-key, runs what the server signed and refuses (401) a request it did not sign: nothing runs', async () => {
    const { worker: signed, home } = await worker('signed', { args: ['--identity-key', publicKey] });
    const id = await submit('signed');
    expect(await waitForTask(server.ingress, id)).toMatchObject({ reason: 'final_answer', result: 'finished task-signed' });

    const spec = JSON.stringify({ prompt: 'task-unsigned: run', cwd: ws, permissionMode: 'bypassPermissions' });
    const headers = { 'content-type': 'application/json' };
    const unsigned = await requestWorker(signed.port, '/invoke/XagentTask/run', headers, spec);
    const forged = await requestWorker(
      signed.port,
      '/invoke/XagentTask/run',
      { ...headers, 'x-restate-signature-scheme': 'v1', 'x-restate-jwt-v1': 'eyJhbGciOiJFZERTQSJ9.e30.AAAA' },
      spec,
    );
    const discover = await requestWorker(signed.port, '/discover');
    expect([unsigned.status, forged.status, discover.status]).toEqual([401, 401, 401]);
    expect(asked.filter((request) => request.task === 'unsigned')).toEqual([]);
    expect(readdirSync(path.join(home, 'sessions'))).toEqual([id]);

    // A worker that expects another key cannot even be registered: the server's discovery request is refused.
    const other = newIdentityKey(path.join(dir, 'other.pem'));
    await expect(worker('other', { args: ['--identity-key', other] })).rejects.toThrow(/exited/);
    // And a worker without a key still answers the signed server (the key is the worker's check, not the server's).
    expect(signed.output()).not.toContain('Accepting requests without validating');
  }, 120_000);

  it('refuses a spec with trust, bypassPermissions or allow rules without --accept-from-spec naming it; with it, runs it', async () => {
    await worker('closed');
    const refusals: Record<string, string[]> = {
      trust: ['--trust'],
      bypassPermissions: ['--permission-mode', 'bypassPermissions'],
      rules: ['--allow', 'bash'],
    };
    for (const [optIn, flags] of Object.entries(refusals)) {
      const id = await submit(`gate${optIn}`, ...flags);
      const waited = await runCli(['wait', id], { env: env() });
      expect({ optIn, code: waited.code }).toEqual({ optIn, code: 14 });
      expect(waited.stderr).toContain(`--accept-from-spec ${optIn}`);
      expect((await taskStatus(server.ingress, id)).reason).toBe('not_started');
    }
    expect(asked.filter((request) => request.task.startsWith('gate'))).toEqual([]);

    await worker('open', { args: ['--accept-from-spec', 'trust,bypassPermissions'] });
    scripts.set('gateopen', (round) => (round === 0 ? bash('toolu_gate', 'echo ran > gate.txt') : { text: 'finished task-gateopen' }));
    const id = await submit('gateopen', '--trust', '--permission-mode', 'bypassPermissions');
    expect(await waitForTask(server.ingress, id)).toMatchObject({ reason: 'final_answer' });
    expect(readFileSync(path.join(ws, 'gate.txt'), 'utf8')).toBe('ran\n');
  }, 120_000);

  it('ends a spec that is not one at once with a terminal error naming the field; the worker stays up and runs the next', async () => {
    const { worker: up } = await worker('schema');
    const send = async (spec: unknown) => {
      const id = `bad-${Math.random().toString(36).slice(2)}`;
      const sent = await fetch(`${server.ingress}/XagentTask/${id}/run/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(spec),
      });
      expect(sent.ok).toBe(true);
      const started = Date.now();
      const error = await waitForTask(server.ingress, id).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      // Restate retries whatever is not terminal, forever: a bound this loose still tells the two apart.
      return { error, ms: Date.now() - started };
    };
    const cases: Array<[unknown, RegExp]> = [
      [{ prompt: 5 }, /^task \S+ refused: the task spec is not valid: prompt must be string; cwd is required$/],
      [{}, /prompt is required/],
      [{ prompt: 'x', cwd: ws, limits: { maxTurns: -1, maxToolCalls: 5, timeoutMs: 1000 } }, /limits\.maxTurns must be >= 1/],
      [{ prompt: 'x', cwd: ws, permissionMode: 'yolo' }, /permissionMode must be one of default, acceptEdits/],
      [{ prompt: 'x', cwd: ws, sudo: true }, /sudo is not a task spec field/],
    ];
    for (const [spec, message] of cases) {
      const { error, ms } = await send(spec);
      expect(error).toBeInstanceOf(RestateError);
      expect({ code: (error as RestateError).code, message: (error as Error).message }).toMatchObject({
        code: 'TASK_FAILED',
        message: expect.stringMatching(message),
      });
      expect(ms).toBeLessThan(15_000);
    }
    expect(up.output()).not.toMatch(/exited|uncaught/i);
    const id = await submit('afterbad');
    expect(await waitForTask(server.ingress, id)).toMatchObject({ reason: 'final_answer', result: 'finished task-afterbad' });
    // And submit checks the same schema before sending: a bad value exits 2, nothing sent.
    const bad = await runCli(['submit', '-p', 'task-never', '--cwd', ws, '--max-thinking-tokens', 'lots'], { env: env() });
    expect({ code: bad.code, stderr: bad.stderr }).toMatchObject({ code: 2, stderr: expect.stringContaining('maxThinkingTokens') });
  }, 120_000);

  it('names the approver in the decision, and with --approval-token takes answers only with that token', async () => {
    const { home } = await worker('approve');
    scripts.set('token', (round) => (round === 0 ? bash('toolu_token', 'echo token > token.txt') : { text: 'finished task-token' }));
    const token = 'a-token-of-sixteen-or-more';
    const id = await submit('token', '--approval-token', token);
    // Its status appears with its first step: until then the task is not found.
    await until(async () => ((await taskStatus(server.ingress, id).catch(() => null))?.waiting.length ?? 0) === 1, `task ${id} to ask`);
    const without = await runCli(['approve', id, 'toolu_token'], { env: env() });
    const wrong = await runCli(['approve', id, 'toolu_token', '--token', 'not-the-token-at-all'], { env: env() });
    expect([without.code, wrong.code]).toEqual([13, 13]);
    // A malformed answer straight to the ingress is refused for good, at once (not retried), and resolves nothing.
    const malformed = await fetch(`${server.ingress}/XagentTask/${id}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool_use_id: 'toolu_token', answer: { kind: 'yes' }, token: 5 }),
    });
    expect(malformed.status).toBe(400);
    expect(without.stderr).toContain('approval token');
    expect(existsSync(path.join(ws, 'token.txt'))).toBe(false);
    const right = await runCli(['approve', id, 'toolu_token', '--as', 'alice'], { env: { ...env(), XAGENT_APPROVAL_TOKEN: token } });
    expect(right.code).toBe(0);
    expect(await waitForTask(server.ingress, id)).toMatchObject({ reason: 'final_answer' });
    expect(traceOf(home, id)).toContain('user alice: yes (asked because');
    expect((await taskStatus(server.ingress, id)).answered).toEqual([{ tool_use_id: 'toolu_token', answer: 'yes', by: 'alice' }]);
  }, 120_000);

  it('decides a replayed task as its first worker did, though the worker taking it up has other settings files', async () => {
    const port = await freePort();
    // A allows bash; B, which takes the task up at A's address after A dies, denies it.
    const { worker: a, home: homeA } = await worker('allows', { port, settings: { permissions: { allow: ['bash'] } } });
    scripts.set('travel', (round) => {
      if (round === 0) return bash('toolu_travel_0', 'echo one >> travel.txt');
      // Round 1 is in flight when A dies: the replay asks it again.
      if (round === 1) return { ...bash('toolu_travel_1', 'echo two >> travel.txt'), delay_ms: 1500 };
      return { text: 'finished task-travel' };
    });
    let killed: Promise<void> | undefined;
    onAsk = (task, round) => {
      if (task === 'travel' && round === 1) killed ??= a.kill9();
    };
    const id = await submit('travel');
    await until(() => killed !== undefined, 'round 1 of the task');
    await killed;
    const { home: homeB } = await worker('denies', { port, settings: { permissions: { deny: ['bash'] } } });
    expect(await waitForTask(server.ingress, id)).toMatchObject({ reason: 'final_answer', result: 'finished task-travel' });
    expect(readFileSync(path.join(ws, 'travel.txt'), 'utf8')).toBe('one\ntwo\n');
    // B's trace: both calls allowed by A's rule, none denied by B's own.
    const trace = traceOf(homeB, id);
    expect(trace).toContain(path.join(homeA, 'settings.json'));
    expect(trace).not.toContain(path.join(homeB, 'settings.json'));
    expect(asked.filter((request) => request.task === 'travel').map((request) => request.round)).toEqual([0, 1, 1, 2]);
  }, 120_000);

  it('kills a command with the worker that started it: after the retry, `sleep 5; echo x >> f` has written one line', async () => {
    const port = await freePort();
    const allow = { permissions: { allow: ['bash'] } };
    const { worker: first } = await worker('first', { port, settings: allow });
    scripts.set('once', (round) =>
      round === 0 ? bash('toolu_once', 'echo started >> started.txt; sleep 5; echo x >> f.txt') : { text: 'finished task-once' },
    );
    const id = await submit('once');
    await until(() => existsSync(path.join(ws, 'started.txt')), 'the command to start');
    await first.kill9();
    await worker('second', { port, settings: allow });
    expect(await waitForTask(server.ingress, id)).toMatchObject({ reason: 'final_answer' });
    // The dead attempt's copy started before the retry's: had it lived, it would have written first.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(readFileSync(path.join(ws, 'started.txt'), 'utf8')).toBe('started\nstarted\n');
    expect(readFileSync(path.join(ws, 'f.txt'), 'utf8')).toBe('x\n');
  }, 120_000);

  it("continues a session with submit --resume: the model gets the conversation so far, in the task's own session", async () => {
    const { home } = await worker('resume');
    const first = await submit('before');
    expect(await waitForTask(server.ingress, first)).toMatchObject({ reason: 'final_answer', result: 'finished task-before' });
    const id = await submit('resumed', '--resume', first.slice(0, 8));
    expect(await waitForTask(server.ingress, id)).toMatchObject({
      reason: 'final_answer',
      result: 'finished task-resumed',
      session_id: id,
    });
    expect(resumedWith).toHaveLength(1);
    expect(resumedWith[0]).toMatch(/task-before: do it\nfinished task-before\ntask-resumed: do it/);
    // The session resumed from is as it was; the task's own holds both prompts.
    expect(readFileSync(path.join(home, 'sessions', first, 'transcript.jsonl'), 'utf8')).not.toContain('task-resumed');
    expect(readFileSync(path.join(home, 'sessions', id, 'transcript.jsonl'), 'utf8')).toContain('task-before');
    // A session the worker does not have: the task does not start, and says why.
    const missing = await runCli(['wait', await submit('nosuch', '--resume', 'feedbeef')], { env: env() });
    expect({ code: missing.code, stderr: missing.stderr }).toMatchObject({ code: 14, stderr: expect.stringContaining('feedbeef') });
  }, 120_000);
});
