import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTranscript } from '../../src/sessions/transcript.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { seededRandom } from '../support/random.js';
import { runCli } from '../support/run-cli.js';
import { assertBuilt } from '../sessions/cli.js';
import { messagesOf, PERMISSIVE, PROMPTS, runThreeTasks, type Snapshot, snapshot, THREE_TASKS } from './scenario.js';

beforeAll(assertBuilt);

const api = useFakeApi();
/** The workspace without the staged copies a rewind writes aside (`.<name>.xagent-rewind-<id>.tmp`). */
const withoutAside = (files: Snapshot) => Object.fromEntries(Object.entries(files).filter(([name]) => !name.includes('.xagent-rewind-')));
const SEED = Number(process.env.XAGENT_KILL_SEED ?? 28);
/** A rewind to message 2 of the three tasks changes the disk at 16 steps (see src/rewind/fault.ts); 17 is never reached. */
const STEPS = 17;

describe('kill -9 during a rewind', () => {
  it(`leaves the old state or the new one, 20 times at random steps (seed ${SEED}), and the session resumes`, async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    const sessionDir = path.join(api.home, 'sessions', ran.id);
    const pristine = { home: `${api.home}.pristine`, workspace: `${api.workspace}.pristine` };
    cpSync(api.home, pristine.home, { recursive: true });
    cpSync(api.workspace, pristine.workspace, { recursive: true });
    const oldMessages = loadTranscript(sessionDir).messages;
    const newRequest = messagesOf(api.fake, ran.firstRequest[1]!);
    const random = seededRandom(SEED);
    const seen = { old: 0, new: 0 };

    for (let round = 0; round < 20; round++) {
      for (const [live, copy] of [
        [api.home, pristine.home],
        [api.workspace, pristine.workspace],
      ] as const) {
        rmSync(live, { recursive: true, force: true });
        cpSync(copy, live, { recursive: true });
      }
      const step = 1 + Math.floor(random.next() * (STEPS - 1));
      const killed = await runCli(['rewind', ran.id, '--to', '2'], {
        env: { ...env, XAGENT_FAULT_KILL_AT: String(step) },
        cwd: api.workspace,
      });
      expect(killed.signal, `round ${round}, step ${step}: ${killed.stderr}`).toBe('SIGKILL');
      // Right after the kill, before anything opens the session: the old files or the new ones
      // (the staged copies aside), unless the journal was committed, which the next open finishes.
      const journal = path.join(sessionDir, 'rewind-pending.json');
      const committed = existsSync(journal) && readFileSync(journal, 'utf8').includes('"state":"committed"');
      const onDisk = JSON.stringify(withoutAside(snapshot(api.workspace)));
      if (!committed) expect(onDisk === JSON.stringify(ran.before[3]) || onDisk === JSON.stringify(ran.before[1])).toBe(true);

      api.fake.push({ text: 'Resumed fine.' });
      const resumed = await runCli(['-p', PROMPTS[1], '--resume', ran.id, ...PERMISSIVE], { env, cwd: api.workspace });
      expect(resumed.code, `round ${round}, step ${step}: ${resumed.stderr}`).toBe(0);
      const workspace = snapshot(api.workspace);
      const sent = messagesOf(api.fake, api.fake.requests.length - 1);
      const isNew = JSON.stringify(workspace) === JSON.stringify(ran.before[1]);
      const isOld = JSON.stringify(workspace) === JSON.stringify(ran.before[3]);
      expect(isNew || isOld, `round ${round}, step ${step}: the workspace is neither the old state nor the new one`).toBe(true);
      // Files and conversation move together: the new files with the cut conversation, the old with the whole one.
      if (isNew) expect(sent, `round ${round}, step ${step}`).toEqual(newRequest);
      else {
        expect(sent.length, `round ${round}, step ${step}`).toBe(oldMessages.length + 1);
        expect(sent.at(-1)?.content).toMatchObject([{ type: 'text', text: PROMPTS[1] }]);
      }
      if (committed) expect(isNew, `round ${round}, step ${step}: a committed rewind must end in the new state`).toBe(true);
      seen[isNew ? 'new' : 'old']++;
      expect(readFileSync(path.join(sessionDir, 'trace.jsonl'), 'utf8').split('"event":"rewind"').length - 1).toBe(isNew ? 1 : 0);
    }
    // Seed 28 kills both before and after the commit point, so both outcomes are exercised.
    expect(seen.old).toBeGreaterThan(0);
    expect(seen.new).toBeGreaterThan(0);
  });

  it(`has no disk step after step ${STEPS - 1}: the random steps above cover the whole rewind`, async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    const done = await runCli(['rewind', ran.id, '--to', '2'], {
      env: { ...env, XAGENT_FAULT_KILL_AT: String(STEPS) },
      cwd: api.workspace,
    });
    expect(done.code, done.stderr).toBe(0);
    expect(snapshot(api.workspace)).toEqual(ran.before[1]);
  });
});
