import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHistory } from '../src/inspector/history.js';
import { liveFeed } from '../src/inspector/live-feed.js';
import { startInspectorServer } from '../src/inspector/server.js';
import { sessionDir } from '../src/sessions/layout.js';
import { openSessionWriter, type SessionSink } from '../src/sessions/session-writer.js';
import { benchScript, runNode } from './child.js';
import { engineRun } from './engine-run.js';
import { roundKit, roundsModel } from './round-fixtures.js';

/** Wall and CPU time per round of one run, in µs. */
export interface PerRound {
  wall: number;
  cpu: number;
}

/**
 * How a run is wired besides the inspector. `bare`: as row 6 first measured it, no session record
 * and no secret to redact. `cli`: as `xagent -p` runs a task (src/run/prepare-run.ts): the trace,
 * transcript and audit written by `openSessionWriter` into a session folder of a temporary
 * XAGENT_HOME, and, when attached, the feed told the prompt, model, workspace and the API key to remove.
 */
export type Wiring = 'bare' | 'cli';

const kit = roundKit();
/** A key of a real key's shape and length: the inspector removes it from every string it sends. */
const BENCH_KEY = `sk-ant-api03-${'x'.repeat(95)}`;
const LIMITS = (rounds: number) => ({ maxTurns: rounds + 2, maxToolCalls: rounds + 1, timeoutMs: 3_600_000 });

/** Resolves when `predicate` holds for the output so far, or rejects after `ms`. */
function waitFor(output: () => string, predicate: (text: string) => boolean, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = performance.now() + ms;
    const poll = () => {
      if (predicate(output())) return resolve();
      if (performance.now() > deadline) return reject(new Error(`inspector client: ${what} did not arrive in ${ms} ms`));
      setTimeout(poll, 5);
    };
    poll();
  });
}

/** This process's CPU time (user + system), in µs: the client, in its own process, is not in it. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

let home: string | undefined;
/** A session of its own for one `cli` run, in this process's temporary XAGENT_HOME; `done` removes it (untimed). */
function benchSession(): { sessionId: string; sink: SessionSink; done(): void } {
  home ??= mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-inspector-'));
  const sessionId = randomUUID();
  const dir = sessionDir(home, sessionId);
  const sink = openSessionWriter(dir, sessionId, {
    onFailure: (error) => {
      throw error;
    },
  });
  return { sessionId, sink, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Removes this process's temporary XAGENT_HOME (its sessions are removed run by run). */
export function removeBenchHome(): void {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
}

/** One engine run with no inspector. */
export async function detachedPerRound(rounds: number, wiring: Wiring): Promise<PerRound> {
  const session = wiring === 'cli' ? benchSession() : null;
  try {
    const [start, cpu] = [performance.now(), cpuNow()];
    await engineRun({
      ...kit,
      model: roundsModel(rounds),
      rounds,
      ...(session ? { sessionId: session.sessionId, session: session.sink } : {}),
    });
    return { wall: ((performance.now() - start) * 1000) / rounds, cpu: (cpuNow() - cpu) / rounds };
  } finally {
    session?.done();
  }
}

/**
 * One engine run wired to the live inspector as `xagent --inspect` wires it (history, live feed,
 * server), with a client process connected to the event stream. Only the run is timed (its CPU
 * until the client has the result record); the client must receive the result, or the run does not count.
 */
export async function attachedPerRound(rounds: number, wiring: Wiring): Promise<PerRound> {
  const session = wiring === 'cli' ? benchSession() : null;
  const secrets = wiring === 'cli' ? [BENCH_KEY] : [];
  const sessionId = session?.sessionId ?? 'bench';
  const history = createHistory({ secrets });
  const feed = liveFeed(history, {
    sessionId,
    limits: LIMITS(rounds),
    ...(wiring === 'cli' ? { model: 'bench-rounds', workspace: kit.workspace, prompt: 'go', message: 1, secrets } : {}),
  });
  const server = await startInspectorServer({ history, chart: () => null });
  let output = '';
  const client = runNode([benchScript('sse-client'), String(server.port), server.token], { onStdout: (chunk) => (output += chunk) });
  try {
    await waitFor(
      () => output,
      (text) => text.includes('connected'),
      10_000,
      'the history event',
    );
    const [start, cpu] = [performance.now(), cpuNow()];
    await engineRun({
      ...kit,
      model: roundsModel(rounds),
      rounds,
      observe: feed,
      onEvidence: feed.evidence,
      ...(session ? { sessionId, session: session.sink } : {}),
    });
    const wall = ((performance.now() - start) * 1000) / rounds;
    await waitFor(
      () => output,
      (text) => text.includes('result'),
      30_000,
      'the result record',
    );
    return { wall, cpu: (cpuNow() - cpu) / rounds };
  } finally {
    await server.close();
    await client;
    session?.done();
  }
}

/** One run of either side. */
export const perRound = (side: 'detached' | 'attached', rounds: number, wiring: Wiring) =>
  side === 'attached' ? attachedPerRound(rounds, wiring) : detachedPerRound(rounds, wiring);
