import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJsonLines } from '../../src/sessions/jsonl.js';
import { readMeta } from '../../src/sessions/meta.js';
import { pairingProblems } from '../../src/sessions/repair.js';
import { loadTranscript } from '../../src/sessions/transcript.js';
import { assertBuilt, runCli, sandbox, startCli } from './cli.js';

beforeAll(assertBuilt);

const idOf = (stdout: string) => (JSON.parse(stdout) as { session_id: string }).session_id;

describe('xagent sessions', () => {
  it('lists sessions as a table, most recent first, with id, when, workspace, last stop and first prompt', async () => {
    const box = sandbox();
    const env = box.env();
    const otherWorkspace = path.join(path.dirname(box.workspace), 'other');
    mkdirSync(otherWorkspace);
    const alpha = await runCli(['-p', 'alpha task', '--model-script', box.script('a.json', [{ text: 'a' }]), '--output-format', 'json'], {
      env,
      cwd: box.workspace,
    });
    const beta = await runCli(
      [
        '-p',
        'beta task',
        '--max-turns',
        '1',
        '--model-script',
        box.script('b.json', [{ content: [{ type: 'tool_use', name: 'read_file', input: { path: 'x' } }] }]),
        '--output-format',
        'json',
      ],
      {
        env,
        cwd: otherWorkspace,
      },
    );
    expect(beta.code).toBe(3);

    const listed = await runCli(['sessions'], { env, cwd: box.workspace });
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+UPDATED\s+WORKSPACE\s+LAST STOP\s+FIRST PROMPT$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(
      new RegExp(`^${idOf(beta.stdout)}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+\\S*other\\s+max_turns\\s+beta task$`),
    );
    expect(lines[2]).toMatch(new RegExp(`^${idOf(alpha.stdout)}\\s+.*\\bws\\s+final_answer\\s+alpha task$`));
  });

  it('prints the same sessions as JSON with --json, and limits them with --limit', async () => {
    const box = sandbox();
    const env = box.env();
    const run = await runCli(['-p', 'only task', '--model-script', box.script('a.json', [{ text: 'done' }]), '--output-format', 'json'], {
      env,
      cwd: box.workspace,
    });
    const listed = await runCli(['sessions', '--json'], { env, cwd: box.workspace });
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id: idOf(run.stdout),
        workspace: realpathSync(box.workspace),
        first_prompt: 'only task',
        last_stop_reason: 'final_answer',
        turns: 1,
        tasks: 1,
        state: 'idle',
        derived: false,
      }),
    ]);
    expect(JSON.parse((await runCli(['sessions', '--json', '--limit', '1'], { env, cwd: box.workspace })).stdout)).toHaveLength(1);
  });

  it('says there are none in an empty XAGENT_HOME, and warns about a session from a newer xagent', async () => {
    const box = sandbox();
    const env = box.env();
    expect((await runCli(['sessions'], { env, cwd: box.workspace })).stdout).toMatch(/^No sessions yet in .*sessions\.\n$/);
    const future = path.join(box.home, 'sessions', 'from-the-future');
    mkdirSync(future, { recursive: true });
    writeFileSync(path.join(future, 'meta.json'), JSON.stringify({ schema_version: 42 }));
    const listed = await runCli(['sessions'], { env, cwd: box.workspace });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain('from-the-future: meta.json has schema_version 42');
  });
});

describe('two processes sharing one XAGENT_HOME', () => {
  it('keeps both sessions intact when two CLIs run at the same time in the same workspace', async () => {
    const box = sandbox();
    const env = box.env();
    const rounds = (tag: string) =>
      box.script(`${tag}.json`, [
        ...Array.from({ length: 4 }, () => ({
          content: [{ type: 'tool_use', name: 'read_file', input: { path: 'notes.txt' } }],
          delay_ms: 40,
        })),
        { text: `${tag} done` },
      ]);
    const one = startCli(['-p', 'task one', '--model-script', rounds('one'), '--output-format', 'json'], { env, cwd: box.workspace });
    const two = startCli(['-p', 'task two', '--model-script', rounds('two'), '--output-format', 'json'], { env, cwd: box.workspace });
    const results = await Promise.all([one.exited, two.exited]);
    for (const result of results) expect(result.code, result.stderr).toBe(0);

    const ids = results.map((r) => idOf(r.stdout));
    expect(new Set(ids).size).toBe(2);
    const root = path.join(box.home, 'sessions');
    expect(readdirSync(root).sort()).toEqual([...ids].sort());
    ids.forEach((id, i) => {
      const dir = path.join(root, id);
      expect(readdirSync(dir).sort()).toEqual(['audit.jsonl', 'meta.json', 'trace.jsonl', 'transcript.jsonl']);
      expect(readMeta(dir)).toMatchObject({
        kind: 'ok',
        meta: { id, first_prompt: `task ${['one', 'two'][i]}`, status: 'idle', turns: 5 },
      });
      const { messages, problems } = loadTranscript(dir);
      expect(problems).toEqual([]);
      expect(messages).toHaveLength(10);
      expect(pairingProblems(messages)).toEqual([]);
      const trace = readJsonLines(path.join(dir, 'trace.jsonl'));
      expect(trace.problems).toEqual([]);
      expect(trace.values.every(({ value }) => (value as { session_id?: string }).session_id === id)).toBe(true);
    });
    const listed = JSON.parse((await runCli(['sessions', '--json'], { env, cwd: box.workspace })).stdout) as Array<{ id: string }>;
    expect(listed.map((s) => s.id).sort()).toEqual([...ids].sort());
  });

  it('never shows a reader half a meta.json while two other processes rewrite it', async () => {
    const box = sandbox();
    const dir = path.join(box.home, 'sessions', 'shared');
    mkdirSync(dir, { recursive: true });
    const metaModule = fileURLToPath(new URL('../../dist/src/sessions/meta.js', import.meta.url));
    const writer = (tag: string) =>
      spawn(process.execPath, [
        '--input-type=module',
        '-e',
        `const { writeMeta } = await import(${JSON.stringify(metaModule)});
         for (let i = 0; i < 300; i++) writeMeta(${JSON.stringify(dir)}, { schema_version: 1, id: 'shared', workspace: '/w', model: null,
           created: new Date().toISOString(), updated: new Date().toISOString(), first_prompt: '${tag}'.repeat(2000), turns: i, tasks: i,
           last_stop_reason: null, status: 'idle', pid: null });`,
      ]);
    const writers = [writer('a'), writer('b')];
    const done = Promise.all(writers.map((w) => new Promise((resolve) => w.on('close', resolve))));
    let finished = false;
    void done.then(() => (finished = true));
    const kinds = new Set<string>();
    while (!finished) {
      kinds.add(readMeta(dir).kind);
      await new Promise((resolve) => setImmediate(resolve));
    }
    kinds.delete('missing'); // before the first rename
    expect([...kinds]).toEqual(['ok']);
    expect(readdirSync(dir)).toEqual(['meta.json']);
  });
});
