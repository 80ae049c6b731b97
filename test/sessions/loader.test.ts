import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { healTornTail, readJsonLines } from '../../src/sessions/jsonl.js';
import { loadTranscript, recordedResults, toMessage } from '../../src/sessions/transcript.js';

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'xagent-loader-'));
const line = (value: object) => `${JSON.stringify(value)}\n`;
const userLine = (text: string) => line({ role: 'user', content: [{ type: 'text', text }] });

describe('readJsonLines', () => {
  it('reads a missing file as empty', () => {
    expect(readJsonLines(path.join(tempDir(), 'none.jsonl'))).toEqual({ values: [], problems: [] });
  });

  it('reports a torn last line (no newline, not JSON) and keeps every line before it', () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, `${line({ a: 1 })}${line({ b: 2 })}{"c": [1, 2`);
    const { values, problems } = readJsonLines(file);
    expect(values.map((v) => v.value)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(problems).toEqual([{ line: 3, kind: 'torn', detail: '11 bytes without a newline' }]);
  });

  it('accepts a whole last line that only lacks its newline', () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, `${line({ a: 1 })}{"b":2}`);
    expect(readJsonLines(file)).toEqual({
      values: [
        { line: 1, value: { a: 1 } },
        { line: 2, value: { b: 2 } },
      ],
      problems: [],
    });
  });

  it('skips a malformed line in the middle and reads on', () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, `${line({ a: 1 })}not json\n${line({ c: 3 })}`);
    const { values, problems } = readJsonLines(file);
    expect(values.map((v) => v.line)).toEqual([1, 3]);
    expect(problems).toMatchObject([{ line: 2, kind: 'malformed' }]);
  });
});

describe('healTornTail', () => {
  it('cuts a torn last line off so the next append starts on a line of its own', () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, `${line({ a: 1 })}{"role":"assis`);
    expect(healTornTail(file)).toBe('dropped a torn last line (14 bytes)');
    appendFileSync(file, line({ b: 2 }));
    expect(readJsonLines(file)).toEqual({
      values: [
        { line: 1, value: { a: 1 } },
        { line: 2, value: { b: 2 } },
      ],
      problems: [],
    });
  });

  it('adds the newline a whole last line is missing', () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, '{"a":1}');
    expect(healTornTail(file)).toBe('added the missing newline after the last line');
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n');
  });

  it('leaves a clean file alone', () => {
    const file = path.join(tempDir(), 't.jsonl');
    writeFileSync(file, line({ a: 1 }));
    expect(healTornTail(file)).toBeNull();
    expect(healTornTail(path.join(tempDir(), 'missing.jsonl'))).toBeNull();
  });
});

describe('loadTranscript', () => {
  it('turns lines into messages and skips JSON that is not a message', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'transcript.jsonl'), `${userLine('hi')}${line({ role: 'system', content: [] })}${line([1])}`);
    const { messages, problems } = loadTranscript(dir);
    expect(messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    expect(problems.map((p) => p.line)).toEqual([2, 3]);
  });

  it('reads the older shape whose content is a plain string', () => {
    expect(toMessage({ role: 'assistant', content: 'hello' })).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'hello' }] });
    expect(toMessage({ role: 'user', content: [{ text: 'no type' }] })).toBeNull();
  });
});

describe('recordedResults', () => {
  it('maps each audited call id to its recorded output', () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'audit.jsonl'),
      `${line({ call: { id: 'toolu_1', name: 'bash', input: {} }, is_error: true, content: 'exit 1' })}{"call":`,
    );
    expect([...recordedResults(dir)]).toEqual([['toolu_1', { content: 'exit 1', isError: true }]]);
  });
});
