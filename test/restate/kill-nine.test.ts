import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForTask } from '../../src/restate/ingress-client.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { runCli } from '../support/run-cli.js';
import { freePort, restateBinary, startRestateServer, startWorker, type RestateServer, type Worker } from '../support/restate-server.js';

/**
 * Done-when 1 of issue 29: with a real Restate server, two workers and the fake API, 20 tasks of 10
 * rounds each all end final_answer although one worker is killed with SIGKILL while they run and
 * a replacement starts at its address a few seconds later; no finished round is asked of the model
 * twice (only a round in flight at the kill may repeat, and the trace says so); every request is valid.
 */
const binary = restateBinary();
/** The tests' submissions carry trust (XAGENT_TRUST=1) and allow rules: these workers take both from a spec. */
const TRUSTING = ['--accept-from-spec', 'trust,rules'];
const TASKS = 20;
const ROUNDS = 10;

interface Asked {
  task: string;
  round: number;
  /** Whether the worker had been killed when the request came. */
  afterKill: boolean;
}

/** A model that reads the conversation: round n of task k is a read_file call, the tenth is the answer. */
function roundsModel(asked: Asked[], state: { killed: boolean; onRequest: () => void }) {
  return (body: Record<string, unknown>): FakeResponse => {
    const messages = body.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
    const first = messages[0]?.content;
    const text = typeof first === 'string' ? first : (first ?? []).map((block) => block.text ?? '').join('');
    const task = /task-(\d+)/.exec(text)?.[1] ?? '?';
    const round = messages.filter((message) => message.role === 'assistant').length;
    asked.push({ task, round, afterKill: state.killed });
    state.onRequest();
    // A little latency, so that the kill finds tasks in flight.
    if (round < ROUNDS - 1)
      return {
        delay_ms: 100,
        content: [{ type: 'tool_use', id: `toolu_${task}_${round}`, name: 'read_file', input: { path: 'notes.txt' } }],
      };
    return { delay_ms: 100, text: `done task-${task}` };
  };
}

describe.skipIf('missing' in binary)(
  `durable tasks survive kill -9 of a worker${'missing' in binary ? ` (skipped: ${binary.missing})` : ''}`,
  () => {
    let dir: string;
    let server: RestateServer;
    let fake: FakeAnthropic;
    const workers: Worker[] = [];
    const asked: Asked[] = [];
    const state: { killed: boolean; onRequest: () => void } = { killed: false, onRequest: () => {} };

    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'xagent-restate-kill-'));
      mkdirSync(path.join(dir, 'ws'));
      writeFileSync(path.join(dir, 'ws', 'notes.txt'), 'the notes\n');
      server = await startRestateServer((binary as { path: string }).path, path.join(dir, 'restate-data'));
      fake = await startFakeAnthropic([], { respond: roundsModel(asked, state) });
    }, 120_000);

    afterAll(async () => {
      for (const worker of workers) await worker.stop();
      await server?.stop();
      await fake?.close();
      rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    const workerEnv = (home: string) => ({
      XAGENT_HOME: home,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      XAGENT_TRUST: '1',
    });
    const submit = async (i: number) => {
      const cwd = path.join(dir, 'ws');
      const limits = ['--max-turns', '20', '--max-tool-calls', '20', '--timeout', '10m'];
      const run = await runCli(['submit', '-p', `task-${i}: read notes.txt ${ROUNDS - 1} times`, '--cwd', cwd, ...limits], {
        env: { RESTATE_INGRESS_URL: server.ingress },
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // The id alone on stdout: a script can capture it.
      expect(run.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
      submitted[i] = run.stdout.trim();
    };
    const submitted: string[] = [];

    it('ends all 20 tasks with final_answer, repeating no finished round, after one of two workers is killed mid-run and replaced', async () => {
      const homeA = path.join(dir, 'home-a');
      const homeB = path.join(dir, 'home-b');
      const portA = await freePort();
      const workerA = await startWorker({ port: portA, admin: server.admin, args: TRUSTING, env: workerEnv(homeA) });
      workers.push(workerA);
      // The kill comes when worker A's tasks (0-9) are about a third of the way through.
      const killed = new Promise<void>((resolve) => {
        state.onRequest = () => {
          if (state.killed || asked.filter((request) => Number(request.task) < TASKS / 2).length < 30) return;
          state.killed = true;
          void workerA.kill9().then(resolve);
        };
      });
      // Restate starts each invocation on the deployment registered last: half the tasks on A, half on B.
      await Promise.all(Array.from({ length: TASKS / 2 }, (_, i) => submit(i)));
      const workerB = await startWorker({ port: await freePort(), admin: server.admin, args: TRUSTING, env: workerEnv(homeB) });
      workers.push(workerB);
      await Promise.all(Array.from({ length: TASKS / 2 }, (_, i) => submit(TASKS / 2 + i)));
      await killed;
      // A few seconds later, a replacement at the same address (a restart, or the next machine behind a balancer).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      workers.push(await startWorker({ port: portA, admin: server.admin, args: TRUSTING, env: workerEnv(homeA) }));

      const results = await Promise.all(submitted.map((id) => waitForTask(server.ingress, id)));
      expect(results.map((result) => result.reason)).toEqual(submitted.map(() => 'final_answer'));
      expect(results.map((result) => result.num_turns)).toEqual(submitted.map(() => ROUNDS));
      expect(fake.rejected).toEqual([]);

      // Each round of each task asked once, but the one in flight at the kill: asked again after it, by the
      // replacement, once, and only for the killed worker's tasks. (Its first request may reach the fake a moment
      // after the signal left, so that one is not checked against the kill.) A replay that asked finished rounds
      // again would repeat several rounds per task.
      const byRound = new Map<string, Asked[]>();
      for (const request of asked)
        byRound.set(`${request.task}/${request.round}`, [...(byRound.get(`${request.task}/${request.round}`) ?? []), request]);
      expect(byRound.size).toBe(TASKS * ROUNDS);
      const repeated = [...byRound.entries()].filter(([, requests]) => requests.length > 1);
      for (const [round, requests] of repeated) {
        expect({ round, times: requests.length, again: requests.at(-1)?.afterKill, onA: Number(round.split('/')[0]) < TASKS / 2 }).toEqual({
          round,
          times: 2,
          again: true,
          onA: true,
        });
      }
      const tasksRepeating = repeated.map(([round]) => round.split('/')[0]);
      expect(new Set(tasksRepeating).size).toBe(tasksRepeating.length);

      // The killed worker's tasks were replayed by the replacement: their sessions keep the dead attempt aside,
      // and the session's own trace is one whole run, with the repeated round marked.
      const sessions = readdirSync(path.join(homeA, 'sessions'));
      const replayed = sessions.filter((id) => existsSync(path.join(homeA, 'sessions', id, 'attempts')));
      expect(replayed.length).toBeGreaterThan(0);
      for (const id of replayed) {
        const lines = readFileSync(path.join(homeA, 'sessions', id, 'trace.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(lines.filter((line) => line.event === 'turn_end')).toHaveLength(ROUNDS);
        expect(lines.at(-1)).toMatchObject({ event: 'result', reason: 'final_answer' });
      }
      const retried = replayed.flatMap((id) =>
        readFileSync(path.join(homeA, 'sessions', id, 'trace.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.event === 'retry'),
      );
      // Every repeated model round is marked in its trace (a tool in flight may be marked too).
      expect(retried.filter((line) => line.state === 'call_model.requesting').length).toBeGreaterThanOrEqual(repeated.length);
    }, 240_000);
  },
);
