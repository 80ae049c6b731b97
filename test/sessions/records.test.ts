import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionError } from '../../src/sessions/errors.js';
import { openSessionForRun } from '../../src/sessions/open-for-run.js';
import { RECORD_VERSION } from '../../src/sessions/records.js';
import { readSessionRecords } from '../../src/sessions/session-reader.js';
import { loadTranscript } from '../../src/sessions/transcript.js';
import { runTask } from '../support/engine-harness.js';

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'xagent-records-'));
const jsonl = (values: object[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('');
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('versioned session records', () => {
  it('writes the record version on every line of trace, transcript and audit', async () => {
    const run = await runTask([{ content: [{ type: 'tool_use', name: 'echo', input: { text: 'x' } }] }, { text: 'ok' }]);
    for (const file of ['trace.jsonl', 'transcript.jsonl', 'audit.jsonl']) {
      const written = lines(path.join(run.sessionDir, file));
      expect(written.length).toBeGreaterThan(0);
      expect(
        written.every((l) => l.v === RECORD_VERSION),
        file,
      ).toBe(true);
    }
    // The version is not part of the message: the reader hands back messages as sent to the model.
    expect(loadTranscript(run.sessionDir).messages).toEqual(run.messages);
  });

  it('reads lines written before versions existed (no v, no via) as version 1', () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'trace.jsonl'),
      jsonl([{ seq: 0, ts: '2026-01-01T00:00:00.000Z', session_id: 's', state: 'build_context', turn: 0, tool_call_count: 0 }]),
    );
    writeFileSync(path.join(dir, 'transcript.jsonl'), jsonl([{ role: 'user', content: 'hi' }]));
    const records = readSessionRecords(path.join(dir, 'trace.jsonl'));
    expect(records.states).toMatchObject([{ state: 'build_context' }]);
    expect(records.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
  });

  it('refuses a session written by a newer xagent with a clear message instead of misreading it', () => {
    const home = tempDir();
    const dir = path.join(home, 'sessions', 'from-the-future');
    const future = { v: RECORD_VERSION + 1, role: 'user', content: [{ type: 'text', text: 'hi' }] };
    writeFileSync(path.join(mkdirp(dir), 'transcript.jsonl'), jsonl([future]));
    const open = () => openSessionForRun({ home, workspace: home, resume: 'from-the-future' });
    expect(open).toThrow(SessionError);
    expect(open).toThrow(new RegExp(`newer xagent \\(record version ${RECORD_VERSION + 1}\\)`));
    writeFileSync(path.join(dir, 'trace.jsonl'), jsonl([{ v: 99, seq: 0, state: 'done' }]));
    expect(() => readSessionRecords(path.join(dir, 'trace.jsonl'))).toThrow(/record version 99/);
  });
});

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
