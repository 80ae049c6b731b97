import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { assertBuilt } from '../sessions/cli.js';
import { isAnnotation } from '../../src/sessions/records.js';
import { readSessionRecords } from '../../src/sessions/session-reader.js';
import { messagesOf, PERMISSIVE, PROMPTS, runThreeTasks, snapshot, THREE_TASKS } from './scenario.js';

beforeAll(assertBuilt);

const api = useFakeApi();
const transcript = (id: string) => readFileSync(path.join(api.home, 'sessions', id, 'transcript.jsonl'));
const traceLines = (id: string) =>
  readFileSync(path.join(api.home, 'sessions', id, 'trace.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('xagent rewind', () => {
  it('restores every file byte for byte with its mode bits, and the next request carries exactly the prefix', async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    expect(ran.before[3]).not.toEqual(ran.before[1]);

    const list = await runCli(['rewind', ran.id, '--list'], { env, cwd: api.workspace });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(`  1. ${PROMPTS[0]}`);
    expect(list.stdout).toContain(`  2. ${PROMPTS[1]}`);
    expect(list.stdout).toContain(`  3. ${PROMPTS[2]}`);
    expect(list.stdout).toContain('changes made by bash');

    const rewound = await runCli(['rewind', ran.id, '--to', '2'], { env, cwd: api.workspace });
    expect(rewound.code, rewound.stderr).toBe(0);
    // CRLF notes as after task 1, the binary file and the 0750 script back (after bash deleted them), the new files gone.
    expect(snapshot(api.workspace)).toEqual(ran.before[1]);
    expect(rewound.stderr).toContain('deleted docs/new.md, extra.txt');

    api.fake.push({ text: 'Reworked again.' });
    const next = await runCli(['-p', PROMPTS[1], '--resume', ran.id, ...PERMISSIVE], { env, cwd: api.workspace });
    expect(next.code, next.stderr).toBe(0);
    expect(messagesOf(api.fake, api.fake.requests.length - 1)).toEqual(messagesOf(api.fake, ran.firstRequest[1]!));

    // The rewind is evidence: one line in the log, after everything that came before it.
    const rewind = traceLines(ran.id).filter((line) => line.event === 'rewind');
    expect(rewind).toEqual([expect.objectContaining({ to: 2, code: true, conversation: true, message: PROMPTS[1] })]);
  });

  it('--code puts back the files only: the conversation goes on from where it was', async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    const conversation = transcript(ran.id);
    const rewound = await runCli(['rewind', ran.id, '--to', '2', '--code'], { env, cwd: api.workspace });
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(snapshot(api.workspace)).toEqual(ran.before[1]);
    expect(transcript(ran.id).equals(conversation)).toBe(true);
  });

  it('--conversation cuts the conversation only: every file stays as the last task left it', async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    const rewound = await runCli(['rewind', ran.id, '--to', '2', '--conversation'], { env, cwd: api.workspace });
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(snapshot(api.workspace)).toEqual(ran.before[3]);
    api.fake.push({ text: 'Again.' });
    const next = await runCli(['-p', PROMPTS[1], '--resume', ran.id, ...PERMISSIVE], { env, cwd: api.workspace });
    expect(next.code, next.stderr).toBe(0);
    expect(messagesOf(api.fake, api.fake.requests.length - 1)).toEqual(messagesOf(api.fake, ran.firstRequest[1]!));
  });

  it('refuses with exit 2, naming the file, when a file changed by hand would be overwritten; nothing changes', async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    appendFileSync(path.join(api.workspace, 'notes.txt'), 'my own line\r\n');
    const workspace = snapshot(api.workspace);
    const conversation = transcript(ran.id);
    const rewound = await runCli(['rewind', ran.id, '--to', '2'], { env, cwd: api.workspace });
    expect(rewound.code).toBe(2);
    expect(rewound.stderr).toContain('changed outside xagent');
    expect(rewound.stderr).toContain('notes.txt');
    expect(rewound.stderr).not.toContain('extra.txt');
    expect(snapshot(api.workspace)).toEqual(workspace);
    expect(transcript(ran.id).equals(conversation)).toBe(true);
    expect(traceLines(ran.id).some((line) => line.event === 'rewind')).toBe(false);
  });

  it('a file deleted by hand is simply restored: nothing is overwritten', async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    rmSync(path.join(api.workspace, 'notes.txt'));
    const rewound = await runCli(['rewind', ran.id, '--to', '2', '--code'], { env, cwd: api.workspace });
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(snapshot(api.workspace)).toEqual(ran.before[1]);
  });

  it('keeps no file over the session cap, says so in the tool result, and leaves that file alone when rewinding', async () => {
    const env = {
      ...(await api.start([
        { content: [{ type: 'tool_use', name: 'write_file', input: { path: 'big.txt', content: 'small now\n' } }] },
        { text: 'ok' },
      ])),
    };
    writeFileSync(path.join(api.workspace, 'big.txt'), 'x'.repeat(4096));
    const run = await runCli(['-p', 'shrink big.txt', ...PERMISSIVE], {
      env: { ...env, XAGENT_CHECKPOINT_CAP_BYTES: '1000' },
      cwd: api.workspace,
    });
    expect(run.code, run.stderr).toBe(0);
    const id = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    // The trace leaves the output to the transcript; the session reader puts it back.
    const { lines } = readSessionRecords(path.join(api.home, 'sessions', id, 'trace.jsonl'));
    const result = lines.find((line) => isAnnotation(line, 'tool_result')) as { result: { content: string } };
    expect(result.result.content).toContain('Not checkpointed: big.txt is 4 KB');
    const rewound = await runCli(['rewind', id, '--to', '1', '--code'], { env, cwd: api.workspace });
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(rewound.stderr).toContain('Left as it is: big.txt (too large to checkpoint');
    expect(readFileSync(path.join(api.workspace, 'big.txt'), 'utf8')).toBe('small now\n');
  });

  it('names the numbers there are when asked for a message that does not exist', async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    const rewound = await runCli(['rewind', ran.id, '--to', '7'], { env, cwd: api.workspace });
    expect(rewound.code).toBe(2);
    expect(rewound.stderr).toContain('there is no user message 7: this session has 3');
  });
});
