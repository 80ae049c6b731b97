import { appendFileSync, chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpointLog, type CheckpointLine } from '../../src/rewind/checkpoint-log.js';
import { sessionCheckpoints } from '../../src/rewind/checkpointer.js';
import { blobsDir } from '../../src/rewind/files.js';
import { changesSince } from '../../src/rewind/plan.js';
import { rewindSession } from '../../src/rewind/rewind.js';
import { createEditFileTool } from '../../src/tools/builtin/edit-file.js';
import { createWriteFileTool } from '../../src/tools/builtin/write-file.js';
import { tempDir } from '../support/engine-harness.js';

const signal = new AbortController().signal;
const prompt = (text: string) => `${JSON.stringify({ v: 3, role: 'user', content: [{ type: 'text', text }] })}\n`;

/** A session folder and a workspace, and the write_file tool wired to the session's checkpoints. */
function setup() {
  const session = tempDir('xagent-cp-session-');
  const workspace = tempDir('xagent-cp-ws-');
  const checkpoints = sessionCheckpoints(session, {});
  const write = (file: string, content: string) =>
    createWriteFileTool().execute({ input: { path: file, content }, signal, workspace, checkpoints });
  const edit = (file: string, from: string, to: string) =>
    createEditFileTool().execute({ input: { path: file, old_string: from, new_string: to }, signal, workspace, checkpoints });
  /** The person sends a message: its line goes to the transcript, as the engine appends it. */
  const send = (text: string) => appendFileSync(path.join(session, 'transcript.jsonl'), prompt(text));
  return { session, workspace, write, edit, send };
}

describe('file checkpoints', () => {
  it('keep each distinct version once: a file edited 100 times between two contents costs two blobs', async () => {
    const { session, workspace, write, edit, send } = setup();
    send('flip it a hundred times');
    writeFileSync(path.join(workspace, 'flip.txt'), 'on\n');
    for (let i = 0; i < 50; i++) {
      expect((await edit('flip.txt', 'on', 'off')).isError).toBe(false);
      expect((await edit('flip.txt', 'off', 'on')).isError).toBe(false);
    }
    expect(readdirSync(blobsDir(session))).toHaveLength(2);
    expect(readCheckpointLog(session)).toHaveLength(100);
    expect((await write('new.txt', 'x')).isError).toBe(false);
    // A created file has no earlier bytes to keep: its absence is the checkpoint.
    expect(readCheckpointLog(session).at(-1)).toMatchObject({ before: { kind: 'absent' }, after: { kind: 'file' } });
    expect(readdirSync(blobsDir(session))).toHaveLength(2);
  });

  it('a rewind brings back the exact bytes and mode of a binary, CRLF or executable file and deletes a created one', async () => {
    const { session, workspace, write, edit, send } = setup();
    const binary = Buffer.from([0, 255, 13, 10, 0, 1, 2, 128]);
    writeFileSync(path.join(workspace, 'data.bin'), binary);
    writeFileSync(path.join(workspace, 'crlf.txt'), 'a\r\nb\r\n');
    writeFileSync(path.join(workspace, 'tool.sh'), '#!/bin/sh\n');
    chmodSync(path.join(workspace, 'tool.sh'), 0o741);
    send('first');
    send('second');
    await write('data.bin', 'text now');
    await edit('crlf.txt', 'a', 'A');
    await write('tool.sh', '#!/bin/sh\necho changed\n');
    await write('made/here.txt', 'new');
    const outcome = await rewindSession({ sessionDir: session, sessionId: 's', to: 2, code: true, conversation: false, workspace });
    expect(outcome.kind).toBe('done');
    expect(readFileSync(path.join(workspace, 'data.bin')).equals(binary)).toBe(true);
    expect(readFileSync(path.join(workspace, 'crlf.txt'), 'utf8')).toBe('a\r\nb\r\n');
    expect(statSync(path.join(workspace, 'tool.sh')).mode & 0o7777).toBe(0o741);
    expect(existsSync(path.join(workspace, 'made/here.txt'))).toBe(false);
  });
});

const change = (file: string, bytes: number, before: string): CheckpointLine => ({
  v: 1,
  kind: 'change',
  ts: '',
  transcript_bytes: bytes,
  file,
  before: { kind: 'file', sha256: before, size: 1, mode: 0o644 },
  after: { kind: 'file', sha256: `${before}'`, size: 1, mode: 0o644 },
  kept: true,
});
const rewind = (bytes: number, file: string, before: string, after: string): CheckpointLine => ({
  v: 1,
  kind: 'rewind',
  ts: '',
  id: 'r',
  transcript_bytes: bytes,
  changes: [
    {
      file,
      before: { kind: 'file', sha256: before, size: 1, mode: 0o644 },
      after: { kind: 'file', sha256: after, size: 1, mode: 0o644 },
      kept: true,
    },
  ],
});
const targets = (log: CheckpointLine[], offset: number) =>
  Object.fromEntries(
    [...changesSince(log, offset)].map(([file, { target }]) => [file, target.kind === 'file' ? target.sha256 : target.kind]),
  );

describe('which changes a rewind undoes (changesSince)', () => {
  // Messages at transcript offsets 0 (message 1) and 100 (message 2); the transcript is 200 bytes after task 2.
  it('undoes everything after the message was sent, each file to what it held before its first change', () => {
    const log = [change('a', 50, 'a0'), change('a', 150, 'a1'), change('b', 160, 'b0')];
    expect(targets(log, 100)).toEqual({ a: 'a1', b: 'b0' });
    expect(targets(log, 0)).toEqual({ a: 'a0', b: 'b0' });
  });

  it('after a conversation rewind to message 2, a new message 2 undoes only what came after it', () => {
    // Task 2 changed a; the conversation went back to 100 bytes (files kept); the new task 2 changed b.
    const log = [change('a', 150, 'a1'), rewind(100, 'z', 'z', 'z'), change('b', 150, 'b0')];
    expect(targets(log, 100)).toEqual({ b: 'b0' });
  });

  it('after a code rewind, rewinding further back still reaches the first version', () => {
    // Task 1 changed a (a0 -> a1), task 2 (a1 -> a2); a code rewind to 2 put back a1 (transcript unchanged at 200).
    const log = [change('a', 50, 'a0'), change('a', 150, 'a1'), rewind(200, 'a', "a1'", 'a1')];
    expect(targets(log, 0)).toEqual({ a: 'a0' });
    expect(targets(log, 100)).toEqual({ a: 'a1' });
  });
});
