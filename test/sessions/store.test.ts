import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionError } from '../../src/sessions/errors.js';
import { parseMeta, readMeta, writeMeta, type SessionMeta } from '../../src/sessions/meta.js';
import { openSessionForRun } from '../../src/sessions/open-for-run.js';
import { INTERRUPTED_TEXT, pairingProblems } from '../../src/sessions/repair.js';
import { latestSessionFor, listSessions, resolveSessionId, sessionDir } from '../../src/sessions/store.js';
import { loadTranscript } from '../../src/sessions/transcript.js';
import { homeWithFixtures } from './fixtures.js';

const meta = (fields: Partial<SessionMeta>): SessionMeta => ({
  schema_version: 1,
  id: 'x',
  workspace: '/w',
  model: 'm',
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  first_prompt: 'p',
  turns: 0,
  tasks: 0,
  last_stop_reason: null,
  status: 'idle',
  pid: null,
  ...fields,
});

function sessionWith(home: string, fields: Partial<SessionMeta> & { id: string }): string {
  const dir = path.join(home, 'sessions', fields.id);
  mkdirSync(dir, { recursive: true });
  writeMeta(dir, meta(fields));
  return dir;
}

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof SessionError ? error.code : String(error);
  }
  return 'no error';
};

describe('meta.json', () => {
  it('round-trips through an atomic write and leaves no temporary file behind', () => {
    const home = homeWithFixtures();
    const dir = sessionWith(home, { id: 'a', first_prompt: 'hello' });
    expect(readMeta(dir)).toEqual({ kind: 'ok', meta: meta({ id: 'a', first_prompt: 'hello' }) });
    expect(readdirSync(dir)).toEqual(['meta.json']);
  });

  it('refuses a schema version newer than it knows, and calls an older or absent one malformed', () => {
    expect(parseMeta({ ...meta({}), schema_version: 99 })).toEqual({ kind: 'unsupported', version: 99 });
    expect(parseMeta({ ...meta({}), schema_version: 0 })).toMatchObject({ kind: 'malformed' });
    expect(parseMeta({ id: 'x' })).toMatchObject({ kind: 'malformed' });
    expect(parseMeta({ ...meta({}), last_stop_reason: 'exploded' })).toMatchObject({
      kind: 'malformed',
      reason: expect.stringContaining('last_stop_reason'),
    });
  });

  it('reads the future-schema fixture as unsupported and the cut-off one as malformed', () => {
    const home = homeWithFixtures('future-schema', 'malformed-meta');
    expect(readMeta(path.join(home, 'sessions', 'future-schema'))).toEqual({ kind: 'unsupported', version: 99 });
    expect(readMeta(path.join(home, 'sessions', 'malformed-meta'))).toMatchObject({
      kind: 'malformed',
      reason: expect.stringContaining('not JSON'),
    });
  });
});

describe('listSessions', () => {
  it('sorts by updated, most recent first', () => {
    const home = homeWithFixtures();
    sessionWith(home, { id: 'old', updated: '2026-01-01T00:00:00.000Z' });
    sessionWith(home, { id: 'new', updated: '2026-05-01T00:00:00.000Z' });
    sessionWith(home, { id: 'mid', updated: '2026-03-01T00:00:00.000Z' });
    expect(listSessions(home).sessions.map((s) => s.id)).toEqual(['new', 'mid', 'old']);
  });

  it('lists a historical session without meta.json from its transcript and trace', () => {
    const { sessions } = listSessions(homeWithFixtures('historical-no-meta'));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      id: 'historical-no-meta',
      derived: true,
      state: 'idle',
      meta: { first_prompt: 'summarise README.md', turns: 2, last_stop_reason: 'final_answer', workspace: null },
    });
  });

  it('skips a session from a newer xagent with a warning, and derives one whose meta.json is cut off', () => {
    const { sessions, warnings } = listSessions(homeWithFixtures('future-schema', 'malformed-meta'));
    expect(sessions.map((s) => [s.id, s.derived, s.meta.first_prompt])).toEqual([['malformed-meta', true, 'meta was cut']]);
    expect(warnings).toEqual([expect.stringMatching(/future-schema.*schema_version 99.*skipped/)]);
  });

  it('tells a task still running from one whose process died', () => {
    const home = homeWithFixtures();
    sessionWith(home, { id: 'live', status: 'running', pid: process.pid });
    sessionWith(home, { id: 'dead', status: 'running', pid: deadPid() });
    const states = Object.fromEntries(listSessions(home).sessions.map((s) => [s.id, s.state]));
    expect(states).toEqual({ live: 'running', dead: 'interrupted' });
  });

  it('reads an XAGENT_HOME with no sessions folder as empty', () => {
    expect(listSessions(homeWithFixtures())).toEqual({ sessions: [], warnings: [] });
  });
});

describe('finding a session', () => {
  it('picks the latest session of the workspace for --continue', () => {
    const home = homeWithFixtures();
    sessionWith(home, { id: 'a-old', workspace: '/w', updated: '2026-01-01T00:00:00.000Z' });
    sessionWith(home, { id: 'b-new', workspace: '/w', updated: '2026-02-01T00:00:00.000Z' });
    sessionWith(home, { id: 'c-other', workspace: '/other', updated: '2026-03-01T00:00:00.000Z' });
    expect(latestSessionFor(home, '/w')?.id).toBe('b-new');
    expect(latestSessionFor(home, '/nowhere')).toBeNull();
  });

  it('resolves a whole id or a unique prefix, and refuses unknown, ambiguous and path-like ids', () => {
    const home = homeWithFixtures();
    sessionWith(home, { id: 'abc-1' });
    sessionWith(home, { id: 'abd-2' });
    expect(resolveSessionId(home, 'abc-1')).toBe('abc-1');
    expect(resolveSessionId(home, 'abd')).toBe('abd-2');
    expect(codeOf(() => resolveSessionId(home, 'ab'))).toBe('SESSION_AMBIGUOUS');
    expect(codeOf(() => resolveSessionId(home, 'zzz'))).toBe('SESSION_NOT_FOUND');
    expect(codeOf(() => sessionDir(home, '../../etc'))).toBe('SESSION_ID_INVALID');
  });
});

describe('openSessionForRun', () => {
  it('opens a new session and records the task in meta.json at start and end', async () => {
    const home = homeWithFixtures();
    const session = openSessionForRun({ home, workspace: '/w', modelId: 'claude-x' });
    expect(session).toMatchObject({ isNew: true, messages: [], warnings: [] });
    await session.startTask('first prompt');
    expect(readMeta(session.dir)).toMatchObject({ meta: { status: 'running', pid: process.pid, first_prompt: 'first prompt', tasks: 1 } });
    session.messages.push(
      { role: 'user', content: [{ type: 'text', text: 'first prompt' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    );
    session.endTask({ reason: 'final_answer' });
    await session.settled();
    session.release();
    expect(readMeta(session.dir)).toMatchObject({
      meta: { status: 'idle', pid: null, turns: 1, last_stop_reason: 'final_answer', workspace: '/w', model: 'claude-x' },
    });
    expect(existsSync(path.join(session.dir, 'lock'))).toBe(false);
  });

  it('writes the task start without blocking, and refuses to write the end before the start is on disk', async () => {
    const session = openSessionForRun({ home: homeWithFixtures(), workspace: '/w' });
    const started = session.startTask('prompt');
    expect(() => session.endTask({ reason: 'final_answer' })).toThrow(/await startTask first/);
    await started;
    expect(readMeta(session.dir)).toMatchObject({ meta: { status: 'running', tasks: 1 } });
    session.endTask({ reason: 'final_answer' });
    await session.settled();
    expect(readMeta(session.dir)).toMatchObject({ meta: { status: 'idle', tasks: 1 } });
    session.release();
  });

  it('rejects when the task start cannot be written, leaving no temporary file behind', async () => {
    const session = openSessionForRun({ home: homeWithFixtures(), workspace: '/w' });
    // A folder where meta.json should be: the rename over it fails.
    mkdirSync(path.join(session.dir, 'meta.json'));
    await expect(session.startTask('prompt')).rejects.toMatchObject({ code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST)$/) });
    expect(readdirSync(session.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    session.release();
  });

  it('repairs a session killed during a tool: the audited call keeps its output, the others are interrupted, and the file gets the repair', () => {
    const home = homeWithFixtures('killed-during-tool');
    const session = openSessionForRun({ home, workspace: '/nonexistent/workspace', resume: 'killed-during-tool' });
    const repair = session.messages.at(-1)!;
    expect(repair.role).toBe('user');
    expect(repair.content).toMatchObject([
      { tool_use_id: 'toolu_a', is_error: false, content: expect.stringContaining('README.md\nsrc/') },
      { tool_use_id: 'toolu_b', is_error: true, content: INTERRUPTED_TEXT },
      { tool_use_id: 'toolu_c', is_error: true, content: INTERRUPTED_TEXT },
    ]);
    expect(pairingProblems(session.messages)).toEqual([]);
    expect(loadTranscript(session.dir).messages).toEqual(session.messages);
    expect(session.warnings).toEqual([expect.stringContaining('3 tool call(s) had no result')]);
    session.release();
  });

  it('drops a torn last transcript line with a warning and resumes from the lines before it', () => {
    const home = homeWithFixtures('historical-no-meta');
    const file = path.join(home, 'sessions', 'historical-no-meta', 'transcript.jsonl');
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"role":"user","content":[{"type":"te`);
    const session = openSessionForRun({ home, workspace: '/w', resume: 'historical-no-meta' });
    expect(session.messages).toHaveLength(4);
    expect(session.warnings).toEqual([expect.stringMatching(/transcript\.jsonl: dropped a torn last line/)]);
    expect(loadTranscript(session.dir).problems).toEqual([]);
    session.release();
  });

  it('rewrites a transcript with a malformed middle line, keeping the original beside it', () => {
    const home = homeWithFixtures('historical-no-meta');
    const dir = path.join(home, 'sessions', 'historical-no-meta');
    const lines = readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8').split('\n');
    writeFileSync(path.join(dir, 'transcript.jsonl'), [lines[0], '{oops', ...lines.slice(1)].join('\n'));
    const session = openSessionForRun({ home, workspace: '/w', resume: 'historical-no-meta' });
    expect(session.warnings[0]).toMatch(/line 2 skipped \(malformed/);
    expect(session.messages).toHaveLength(4);
    expect(loadTranscript(dir)).toEqual({ messages: session.messages, problems: [] });
    expect(readdirSync(dir).some((name) => /^transcript\.jsonl\.\d+\.orig$/.test(name))).toBe(true);
    session.release();
  });

  it('continues the latest session of the workspace, and says so when there is none', () => {
    const home = homeWithFixtures();
    sessionWith(home, { id: 'mine', workspace: '/w' });
    const session = openSessionForRun({ home, workspace: '/w', continue: true });
    expect(session).toMatchObject({ sessionId: 'mine', isNew: false });
    session.release();
    expect(codeOf(() => openSessionForRun({ home, workspace: '/elsewhere', continue: true }))).toBe('NO_SESSION_TO_CONTINUE');
  });

  it('refuses a session held by a live process, and takes over a lock left by a dead one', () => {
    const home = homeWithFixtures();
    const dir = sessionWith(home, { id: 's' });
    writeFileSync(path.join(dir, 'lock'), JSON.stringify({ pid: process.ppid }));
    expect(codeOf(() => openSessionForRun({ home, workspace: '/w', resume: 's' }))).toBe('SESSION_IN_USE');
    writeFileSync(path.join(dir, 'lock'), JSON.stringify({ pid: deadPid() }));
    const session = openSessionForRun({ home, workspace: '/w', resume: 's' });
    expect(JSON.parse(readFileSync(path.join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    session.release();
  });

  it('refuses to resume a session written by a newer xagent, and leaves its meta.json alone', () => {
    const home = homeWithFixtures('future-schema');
    const before = readFileSync(path.join(home, 'sessions', 'future-schema', 'meta.json'), 'utf8');
    expect(codeOf(() => openSessionForRun({ home, workspace: '/w', resume: 'future-schema' }))).toBe('SESSION_UNREADABLE');
    expect(readFileSync(path.join(home, 'sessions', 'future-schema', 'meta.json'), 'utf8')).toBe(before);
  });

  it('warns when a session recorded in another workspace is resumed here', () => {
    const home = homeWithFixtures();
    sessionWith(home, { id: 's', workspace: '/there' });
    const session = openSessionForRun({ home, workspace: '/here', resume: 's' });
    expect(session.warnings).toEqual(['session s was recorded in /there; this task runs in /here']);
    session.release();
  });
});
