import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitTask, waitForTask } from '../../src/restate/ingress-client.js';
import { taskSpecOf } from '../../src/restate/task-spec.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { freePort, restateBinary, startWorker, type Worker } from '../support/restate-server.js';

/**
 * Issue 41, done-when 6: `npm run restate:cluster` starts three Restate server nodes (replicated
 * metadata and log, replication 2); two workers register with it; 30 tasks of 6 rounds run while
 * one server node is killed with SIGKILL; every task still ends final_answer, and no round the
 * model had answered is asked again (only a round in flight when an attempt was cut may be).
 */
const binary = restateBinary();
const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/scripts/restate-cluster.js');
const TASKS = 30;
const ROUNDS = 6;

interface Cluster {
  ingress: string;
  admin: string;
  nodes: Array<{ name: string; pid: number }>;
}

describe.skipIf('missing' in binary)(`a three-node Restate cluster${'missing' in binary ? ` (skipped: ${binary.missing})` : ''}`, () => {
  let dir: string;
  let cluster: Cluster;
  let fake: FakeAnthropic;
  const workers: Worker[] = [];
  const asked: Array<{ task: string; round: number; afterKill: boolean }> = [];
  let killed = false;
  let onRequest = () => {};

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'xagent-restate-cluster-'));
    mkdirSync(path.join(dir, 'ws'));
    writeFileSync(path.join(dir, 'ws', 'notes.txt'), 'the notes\n');
    const { stdout } = await promisify(execFile)(process.execPath, [SCRIPT, '--nodes', '3', '--base-dir', path.join(dir, 'cluster')], {
      timeout: 150_000,
    });
    // One JSON line, as the contract says.
    expect(stdout.trim().split('\n')).toHaveLength(1);
    cluster = JSON.parse(stdout) as Cluster;
    fake = await startFakeAnthropic([], {
      respond: (body): FakeResponse => {
        const messages = body.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
        const first = messages[0]?.content;
        const text = typeof first === 'string' ? first : (first ?? []).map((block) => block.text ?? '').join('');
        const task = /task-(\d+)/.exec(text)?.[1] ?? '?';
        const round = messages.filter((message) => message.role === 'assistant').length;
        asked.push({ task, round, afterKill: killed });
        onRequest();
        if (round < ROUNDS - 1)
          return {
            delay_ms: 150,
            content: [{ type: 'tool_use', id: `toolu_${task}_${round}`, name: 'read_file', input: { path: 'notes.txt' } }],
          };
        return { delay_ms: 150, text: `done task-${task}` };
      },
    });
  }, 180_000);

  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    if (cluster)
      await promisify(execFile)(process.execPath, [SCRIPT, '--stop', '--base-dir', path.join(dir, 'cluster')], { timeout: 60_000 });
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 90_000);

  it('prints its nodes, and runs 30 tasks to final_answer across a node killed with SIGKILL, asking no answered round again', async () => {
    expect(cluster.nodes.map((node) => node.name)).toEqual(['node-1', 'node-2', 'node-3']);
    const env = (name: string) => ({
      XAGENT_HOME: path.join(dir, `home-${name}`),
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
    });
    const submitted: string[] = [];
    const submit = async (i: number) => {
      const spec = taskSpecOf(
        `task-${i}: read notes.txt ${ROUNDS - 1} times`,
        { maxTurns: '20', maxToolCalls: '20', timeout: '10m' },
        path.join(dir, 'ws'),
        {},
      );
      submitted[i] = await submitTask(cluster.ingress, spec);
    };
    // The node that dies is not the one the clients and workers talk to: its loss is the log's and the partitions'.
    const victim = cluster.nodes[2] as { name: string; pid: number };
    const nodeKilled = new Promise<void>((resolve) => {
      onRequest = () => {
        if (killed || asked.length < (TASKS * ROUNDS) / 3) return;
        killed = true;
        process.kill(victim.pid, 'SIGKILL');
        resolve();
      };
    });
    // Restate starts each new task on the deployment registered last: half on each worker.
    workers.push(await startWorker({ port: await freePort(), admin: cluster.admin, env: env('a') }));
    await Promise.all(Array.from({ length: TASKS / 2 }, (_, i) => submit(i)));
    workers.push(await startWorker({ port: await freePort(), admin: cluster.admin, env: env('b') }));
    await Promise.all(Array.from({ length: TASKS / 2 }, (_, i) => submit(TASKS / 2 + i)));
    await nodeKilled;

    const results = await Promise.all(submitted.map((id) => waitForTask(cluster.ingress, id)));
    expect(results.map((result) => result.reason)).toEqual(submitted.map(() => 'final_answer'));
    expect(results.map((result) => result.num_turns)).toEqual(submitted.map(() => ROUNDS));
    expect(fake.rejected).toEqual([]);

    // Every round of every task was asked. A round is finished once the task's next round is asked (its model
    // answer and tool result are journaled before that request leaves): none is asked again after that. Only a
    // round in flight when its attempt was cut (by the kill, or by a slow machine's timeouts) may be asked again.
    const byRound = new Map<string, typeof asked>();
    for (const request of asked)
      byRound.set(`${request.task}/${request.round}`, [...(byRound.get(`${request.task}/${request.round}`) ?? []), request]);
    expect(byRound.size).toBe(TASKS * ROUNDS);
    const askedAgainAfterFinishing = submitted.flatMap((_, task) => {
      const rounds = asked.filter((request) => request.task === String(task)).map((request) => request.round);
      return rounds.flatMap((round, i) => (rounds.slice(0, i).some((earlier) => earlier > round) ? [`${task}/${round}`] : []));
    });
    expect(askedAgainAfterFinishing).toEqual([]);
    const repeated = [...byRound.entries()].filter(([, requests]) => requests.length > 1);
    if (process.env.XAGENT_CLUSTER_STATS)
      console.log(`repeated rounds: ${repeated.length}, requests: ${asked.length}, after kill: ${asked.filter((r) => r.afterKill).length}`);
  }, 300_000);
});
