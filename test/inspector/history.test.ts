import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { loadSessionHistory, ReplayError, resolveSessionTarget } from '../../src/inspector/replay.js';
import type { InspectorRecord } from '../../src/inspector/records.js';
import { runTask, tempDir, writeJson } from '../support/engine-harness.js';
import { createSanitizer, REDACTED } from '../../src/inspector/redact.js';

const KEY = 'sk-ant-api03-AbCdEf0123456789_xyz-QWERTY';
const call = { id: 't1', name: 'bash', input: { command: `curl -H "x-api-key: ${KEY}" https://api.anthropic.com` } };

/** The seed's regression: invalid input, corrected, then the answer. */
const seedScript = [
  {
    content: [
      { type: 'text' as const, text: 'Let me echo.' },
      { type: 'tool_use' as const, name: 'echo', input: { text: 42 } },
    ],
  },
  { content: [{ type: 'tool_use' as const, name: 'echo', input: { text: 'hi' } }] },
  { text: 'All done.' },
];

describe('inspector history', () => {
  it('never lets an Anthropic key, an authorization header or a given secret reach a record', () => {
    const history = createHistory({ secrets: ['my-secret-token-value'] });
    history.append({ kind: 'tool_start', call });
    history.append({
      kind: 'tool_result',
      call,
      result: { content: `Authorization: Bearer abcdefghijklmnop\nkey=${KEY}\nmy-secret-token-value`, is_error: false },
    });
    history.append({ kind: 'retry', attempt: 1, delay_ms: 10, message: `401 for ${KEY}` });
    history.append({
      kind: 'meta',
      mode: 'live',
      session_id: 's',
      limits: {},
      prompt: 'x',
      workspace: '/w',
      source: JSON.stringify({ headers: { authorization: 'Bearer zzzzzzzzzzzz' } }),
    });
    const text = JSON.stringify(history.records);
    expect(text).not.toContain('AbCdEf0123456789');
    expect(text).not.toContain('abcdefghijklmnop');
    expect(text).not.toContain('zzzzzzzzzzzz');
    expect(text).not.toContain('my-secret-token-value');
    expect(text).toContain('[redacted]');
  });

  it('blanks the value of credential-named keys wherever they are nested', () => {
    const history = createHistory();
    history.append({
      kind: 'tool_start',
      call: { id: 'a', name: 'fetch', input: { headers: { Authorization: 'token-123456789', 'X-Api-Key': 'plainvalue123' }, url: 'u' } },
    });
    expect(history.records[0]).toMatchObject({
      call: { input: { headers: { Authorization: '[redacted]', 'X-Api-Key': '[redacted]' }, url: 'u' } },
    });
  });

  it('keeps at most maxRecords, adds one notice when the cap is reached, and still keeps the result', () => {
    const history = createHistory({ maxRecords: 10 });
    for (let k = 0; k < 25; k++) history.append({ kind: 'text', text: `t${k}` });
    history.append({
      kind: 'result',
      reason: 'final_answer',
      is_error: false,
      stop_message: 'ok',
      text: 'ok',
      turns: 1,
      tool_calls: 0,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const kinds = history.records.map((r) => r.kind);
    expect(history.capped).toBe(true);
    expect(kinds.filter((k) => k === 'notice')).toHaveLength(1);
    expect(history.records[9]).toMatchObject({ kind: 'notice', message: expect.stringContaining('at most 10 records') });
    expect(kinds.at(-1)).toBe('result');
    expect(history.records).toHaveLength(11);
    expect(history.records.map((r) => r.i)).toEqual([...Array(11).keys()]);
  });

  it('cuts a huge tool output instead of keeping it whole', () => {
    const history = createHistory({ maxTextChars: 100 });
    history.append({ kind: 'tool_result', call, result: { content: 'x'.repeat(10_000), is_error: false } });
    const record = history.records[0] as Extract<InspectorRecord, { kind: 'tool_result' }>;
    expect(record.result.content.length).toBeLessThan(200);
    expect(record.result.content).toContain('9900 more characters');
  });

  it('tells subscribers about each record as it is appended', () => {
    const history = createHistory();
    const seen: number[] = [];
    const stop = history.subscribe((r) => seen.push(r.i));
    history.append({ kind: 'text', text: 'a' });
    stop();
    history.append({ kind: 'text', text: 'b' });
    expect(seen).toEqual([0]);
  });
});

describe('the live feed of a run', () => {
  it('records deltas: a meta with the limits first, state records with trace fields and the transition taken, no message arrays', async () => {
    const history = createHistory();
    const feed = liveFeed(history, {
      sessionId: 's1',
      model: 'm',
      limits: { maxTurns: 5, maxToolCalls: 3, timeoutMs: 9000 },
      workspace: '/w',
    });
    const run = await runTask(seedScript, { observe: feed, maxTurns: 5, maxToolCalls: 3 });
    const states = history.records.filter((r): r is Extract<InspectorRecord, { kind: 'state' }> => r.kind === 'state');
    expect(history.records[0]).toMatchObject({ kind: 'meta', session_id: 's1', limits: { maxTurns: 5, maxToolCalls: 3, timeoutMs: 9000 } });
    expect(states.map((s) => s.name)).toEqual(run.states);
    expect(states.find((s) => s.name === 'recover')).toMatchObject({
      error: { code: 'TOOL_INPUT_INVALID' },
      via: { event: 'always', transition: 'validate_tool:always[callInvalid]>recover' },
    });
    expect(states.find((s) => s.name === 'validate_tool')?.via).toEqual({
      event: 'xstate.done.actor.callModel',
      transition: 'call_model.requesting:xstate.done.actor.callModel[responseHasToolCalls]>validate_tool',
    });
    expect(states[0]?.via).toEqual({ event: 'xstate.init' });
    expect(history.records.at(-1)).toMatchObject({ kind: 'result', reason: 'final_answer', stop_message: 'All done.' });
    expect(JSON.stringify(history.records)).not.toContain('"messages"');
    expect(JSON.stringify(history.records)).not.toContain('"role"');
  });

  it('reads the evidence log when given it: the same records, each the log record itself with the page fields', async () => {
    const byEvents = createHistory();
    await runTask(seedScript, { observe: liveFeed(byEvents, { sessionId: 's1', limits: {} }) });
    const byLog = createHistory();
    const feed = liveFeed(byLog, { sessionId: 's1', limits: {} });
    const run = await runTask(seedScript, { observe: feed, onEvidence: feed.evidence });
    const said = (records: readonly InspectorRecord[]) =>
      records.map((r) => (r.kind === 'state' ? `${r.kind} ${r.name} ${r.via?.transition ?? ''}` : r.kind));
    expect(said(byLog.records)).toEqual(said(byEvents.records));
    // A state record is the trace line's fields, with the page's index and kind added and its
    // `state` as `name`, without the format version, the session id and the top-level agent (as
    // the events and the replay give it); an event line's `event` is its `kind`, not kept twice.
    const trace = readFileSync(path.join(run.sessionDir, 'trace.jsonl'), 'utf8').split('\n');
    const state = byLog.records.find((r) => r.kind === 'state' && r.name === 'recover')!;
    const line = trace.find((l) => l.includes('"state":"recover"'))!;
    const { v, session_id, agent, state: name, ...fields } = JSON.parse(line);
    expect([v, session_id, agent, name]).toEqual([expect.any(Number), expect.any(String), 'main', 'recover']);
    expect(JSON.parse(JSON.stringify(state))).toEqual({ ...fields, i: state.i, kind: 'state', name: 'recover' });
    expect(state).toMatchObject({ via: { event: 'always' } });
    const started = byLog.records.find((r) => r.kind === 'tool_start')!;
    const {
      v: _v,
      session_id: _id,
      agent: _agent,
      event,
      ...startFields
    } = JSON.parse(trace.find((l) => l.includes('"event":"tool_start"'))!);
    expect(event).toBe('tool_start');
    expect(JSON.parse(JSON.stringify(started))).toEqual({ ...startFields, i: started.i, kind: 'tool_start' });
  });

  it('still redacts an evidence line that holds a secret, key or value', async () => {
    const history = createHistory({ secrets: [KEY] });
    const feed = liveFeed(history, { sessionId: 's5', limits: {}, secrets: [KEY] });
    const leaky = [{ content: [{ type: 'tool_use' as const, id: 't1', name: 'echo', input: { text: KEY } }] }, { text: 'ok' }];
    await runTask(leaky, { observe: feed, onEvidence: feed.evidence });
    const sent = JSON.stringify(history.records);
    expect(sent).toContain('echo');
    expect(sent).not.toContain(KEY);
    expect(sent).toContain('[redacted]');
  });

  it('gives the stop message the user saw for a stop that is not an answer', async () => {
    const history = createHistory();
    const feed = liveFeed(history, { sessionId: 's2', limits: { maxTurns: 1, maxToolCalls: 3, timeoutMs: 9000 } });
    await runTask(seedScript, { observe: feed, maxTurns: 1 });
    expect(history.records.at(-1)).toMatchObject({
      kind: 'result',
      reason: 'max_turns',
      stop_message: expect.stringContaining('more than 1 model rounds'),
    });
  });
});

describe('replay of a recorded session', () => {
  const lastStep = (records: readonly InspectorRecord[]) => records.filter((r) => r.kind === 'state').at(-1);

  it('highlights the transition that fired: a final answer is done(callModel) into done, never max_turns', async () => {
    const run = await runTask([{ text: 'The answer.' }]);
    const replay = loadSessionHistory(path.join(run.sessionDir, 'trace.jsonl'));
    expect(lastStep(replay.records)).toMatchObject({
      name: 'done',
      reason: 'final_answer',
      via: { event: 'xstate.done.actor.callModel', transition: 'call_model.requesting:xstate.done.actor.callModel>done' },
    });
  });

  it('highlights the maxTurnsReached transition for a run that hit max_turns', async () => {
    const run = await runTask(seedScript, { maxTurns: 1 });
    const replay = loadSessionHistory(path.join(run.sessionDir, 'trace.jsonl'));
    expect(lastStep(replay.records)).toMatchObject({
      name: 'done',
      reason: 'max_turns',
      via: { event: 'always', transition: 'append_tool_result.collected:always[maxTurnsReached]>done' },
    });
  });

  it('replays exactly the transitions the live run took', async () => {
    const live = createHistory();
    const run = await runTask(seedScript, { observe: liveFeed(live, { sessionId: 's', limits: {} }) });
    const replay = loadSessionHistory(path.join(run.sessionDir, 'trace.jsonl'));
    const vias = (records: readonly InspectorRecord[]) => records.flatMap((r) => (r.kind === 'state' ? [r.via] : []));
    expect(vias(replay.records)).toEqual(vias(live.records));
    expect(vias(replay.records).every((via) => via?.event)).toBe(true);
  });

  it('rebuilds the same states, tool calls, model text and stop from trace, audit and transcript', async () => {
    const live = createHistory();
    const feed = liveFeed(live, { sessionId: 's3', limits: {} });
    const run = await runTask(seedScript, { observe: feed });
    const replay = loadSessionHistory(path.join(run.sessionDir, 'trace.jsonl'));
    const names = (records: readonly InspectorRecord[]) => records.flatMap((r) => (r.kind === 'state' ? [r.name] : []));
    expect(names(replay.records)).toEqual(names(live.records));
    expect(replay.records[0]).toMatchObject({ kind: 'meta', mode: 'replay' });
    expect(replay.records.filter((r) => r.kind === 'tool_result')).toMatchObject([
      { call: { name: 'echo', input: { text: 'hi' } }, result: { content: 'echo: hi', is_error: false } },
    ]);
    expect(replay.records.filter((r) => r.kind === 'text').map((r) => (r as { text: string }).text)).toEqual(['Let me echo.', 'All done.']);
    expect(replay.records.at(-1)).toMatchObject({ kind: 'result', reason: 'final_answer', stop_message: 'All done.' });
  });

  it('folds the same evidence live and replayed: one ordered log, read the same way', async () => {
    const live = createHistory();
    const run = await runTask(seedScript, { observe: liveFeed(live, { sessionId: 's4', limits: {} }) });
    const replay = loadSessionHistory(path.join(run.sessionDir, 'trace.jsonl'));
    // What each record says, text deltas joined into the turn's text; meta, notices and the message
    // number (a bare liveFeed is not told it; the replay counts it from the log) aside.
    const fold = (records: readonly InspectorRecord[]) =>
      records
        .filter((r) => r.kind !== 'meta' && r.kind !== 'notice' && r.kind !== 'prompt')
        .reduce<string[]>((out, r) => {
          const said =
            r.kind === 'state' ? `state ${r.name} ${r.via?.transition ?? ''}` : r.kind === 'text' ? `text ${r.text}` : `${r.kind}`;
          const last = out.at(-1);
          if (r.kind === 'text' && last?.startsWith('text ')) out[out.length - 1] = last + r.text;
          else out.push(said);
          return out;
        }, []);
    expect(fold(replay.records)).toEqual(fold(live.records));
    expect(fold(replay.records)).toContain('tool_result');
    expect(fold(replay.records).at(-1)).toBe('result');
    // This chart recorded it: no older-chart note.
    expect(replay.records[0]).toMatchObject({ kind: 'meta', chart: { recorded: expect.any(String) } });
    expect(replay.records.some((r) => r.kind === 'notice')).toBe(false);
  });

  it('shows the recorded task limits and model on the replay gauges', async () => {
    const run = await runTask(seedScript, { maxTurns: 5, maxToolCalls: 7, timeoutMs: 60_000 });
    const replay = loadSessionHistory(path.join(run.sessionDir, 'trace.jsonl'));
    expect(replay.records[0]).toMatchObject({
      kind: 'meta',
      model: 'scripted',
      limits: { maxTurns: 5, maxToolCalls: 7, timeoutMs: 60_000 },
    });
  });

  it('finds a session by id under XAGENT_HOME, by directory, or by trace file, and says what it expected otherwise', async () => {
    const home = tempDir();
    const run = await runTask(seedScript, { sessionDir: path.join(home, 'sessions', 'abc') });
    const trace = path.join(run.sessionDir, 'trace.jsonl');
    expect(resolveSessionTarget('abc', home)).toBe(trace);
    expect(resolveSessionTarget(run.sessionDir, home)).toBe(trace);
    expect(resolveSessionTarget(trace, home)).toBe(trace);
    expect(() => resolveSessionTarget('nope', home)).toThrow(ReplayError);
    expect(() => loadSessionHistory(writeJson(path.join(home, 'empty.jsonl'), {}))).toThrow(/no trace lines/);
  });
});

describe('sanitizing what goes to the page', () => {
  it('redacts into a copy and never changes the object the engine still holds', () => {
    const sanitize = createSanitizer({ maxText: 50 });
    const input = { headers: { authorization: 'Bearer abcdefghijkl' }, text: 'key sk-ant-api03-xyz', ok: ['plain'] };
    const before = JSON.stringify(input);
    const clean = sanitize(input) as typeof input;
    expect(clean).toEqual({ headers: { authorization: REDACTED }, text: `key sk-ant-${REDACTED}`, ok: ['plain'] });
    expect(JSON.stringify(input)).toBe(before);
    expect(clean.ok).toBe(input.ok);
  });

  it('judges a key the same every time it is seen (its verdict is remembered, not recomputed)', () => {
    const sanitize = createSanitizer();
    const keyed = { 'sk-ant-api03-abcdef': 1 };
    for (let n = 0; n < 3; n++) {
      expect(sanitize({ password: `hunter${n}`, ok: n })).toEqual({ password: REDACTED, ok: n });
      expect(Object.keys(sanitize(keyed) as object)).toEqual([`sk-ant-${REDACTED}`]);
    }
  });

  it('walks a value two records share once, and redacts it in both', () => {
    const sanitize = createSanitizer({ secrets: [KEY] });
    let reads = 0;
    const usage = {
      get input_tokens() {
        reads++;
        return 1;
      },
    };
    const leaky = { id: 't1', input: { text: `key ${KEY}` } };
    const first = sanitize({ kind: 'state', name: 'a', usage, call: leaky }) as { call: typeof leaky };
    const second = sanitize({ kind: 'state', name: 'b', usage, call: leaky }) as { call: typeof leaky };
    expect(reads).toBe(1);
    for (const record of [first, second]) expect(record.call.input.text).toBe(`key ${REDACTED}`);
    expect(second.call).toBe(first.call);
    // Another value under the same key is walked again.
    const other = sanitize({ kind: 'state', name: 'c', usage: { input_tokens: 2 }, call: { id: 't2', password: 'hunter2' } });
    expect(other).toMatchObject({ usage: { input_tokens: 2 }, call: { id: 't2', password: REDACTED } });
  });

  it('returns a value with nothing to change as it is', () => {
    const record = { kind: 'state', name: 'call_model', usage: { input_tokens: 1, output_tokens: 2 } };
    expect(createSanitizer()(record)).toBe(record);
  });

  it('blanks credential-named keys in an evidence record too, and leaves the log record as it was', () => {
    // Regression: a fast path for evidence lines once looked only for key-like text, so
    // `{"password": "hunter2"}` in a tool's input reached the page verbatim.
    const history = createHistory();
    const call = { id: 't1', name: 'bash', input: { password: 'hunter2', api_key: 'abcdefgh1234' } };
    const body = { kind: 'tool_start', call };
    const record = history.appendOwn(body as never, 't');
    const sent = JSON.stringify(record);
    expect(sent).not.toContain('hunter2');
    expect(sent).not.toContain('abcdefgh1234');
    expect(JSON.parse(sent)).toMatchObject({ i: 0, call: { input: { password: REDACTED, api_key: REDACTED } } });
    expect(call.input.password).toBe('hunter2');
  });

  it('makes an own body with nothing to redact the record itself, numbered in place; `append` copies', () => {
    const history = createHistory();
    const own = { kind: 'turn_end', reason: 'tool_use' } as const;
    expect(history.appendOwn({ ...own }, 't')).toEqual({ ...own, i: 0, ts: 't' });
    const mine = { kind: 'turn_end', reason: 'end_turn' } as const;
    const fresh = { ...mine };
    expect(history.appendOwn(fresh, 't')).toBe(fresh);
    expect(history.append(mine, 't')).not.toBe(mine);
    expect(mine).toEqual({ kind: 'turn_end', reason: 'end_turn' });
  });
});
