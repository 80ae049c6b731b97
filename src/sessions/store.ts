import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { StopReason } from '../../machines/types.js';
import { SessionError } from './errors.js';
import { readJsonLines } from './jsonl.js';
import { META_SCHEMA_VERSION, clipPrompt, pidAlive, readMeta, type SessionMeta } from './meta.js';
import { SESSION_ID, sessionDir, sessionsRoot, TRACE_FILE, TRANSCRIPT_FILE } from './layout.js';
import { firstUserText, loadTranscript } from './transcript.js';

export { sessionDir, sessionsRoot } from './layout.js';

/** One session as `xagent sessions` shows it. */
export interface SessionSummary {
  id: string;
  dir: string;
  meta: SessionMeta;
  /** `running`: a live process has a task in it; `interrupted`: its process died mid-task. */
  state: 'idle' | 'running' | 'interrupted';
  /** True for sessions recorded before meta.json existed (or with an unreadable one): fields come from the files. */
  derived: boolean;
}

export interface SessionList {
  sessions: SessionSummary[];
  /** Sessions that could not be listed, and why (for stderr). */
  warnings: string[];
}

/**
 * Every recorded session under `<home>/sessions`, most recently updated first.
 * @example const { sessions } = listSessions(process.env.XAGENT_HOME ?? '~/.xagent');
 */
export function listSessions(home: string): SessionList {
  const root = sessionsRoot(home);
  if (!existsSync(root)) return { sessions: [], warnings: [] };
  const sessions: SessionSummary[] = [];
  const warnings: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !SESSION_ID.test(entry.name)) continue;
    const summary = summarize(path.join(root, entry.name), entry.name);
    if (summary.kind === 'ok') sessions.push(summary.summary);
    else if (summary.kind === 'warning') warnings.push(summary.warning);
  }
  sessions.sort((a, b) => Date.parse(b.meta.updated) - Date.parse(a.meta.updated) || a.id.localeCompare(b.id));
  return { sessions, warnings };
}

type Summarized = { kind: 'ok'; summary: SessionSummary } | { kind: 'warning'; warning: string } | { kind: 'empty' };

function summarize(dir: string, id: string): Summarized {
  const read = readMeta(dir);
  switch (read.kind) {
    case 'ok':
      return { kind: 'ok', summary: { id, dir, meta: read.meta, state: stateOf(read.meta), derived: false } };
    case 'unsupported':
      return {
        kind: 'warning',
        warning: `session ${id}: meta.json has schema_version ${JSON.stringify(read.version)}, newer than this xagent reads (${META_SCHEMA_VERSION}); skipped`,
      };
    case 'malformed':
    case 'missing': {
      const meta = deriveMeta(dir, id);
      if (!meta)
        return read.kind === 'missing'
          ? { kind: 'empty' }
          : { kind: 'warning', warning: `session ${id}: ${read.reason}, and there is no transcript; skipped` };
      return { kind: 'ok', summary: { id, dir, meta, state: 'idle', derived: true } };
    }
    default: {
      const unreachable: never = read;
      return unreachable;
    }
  }
}

function stateOf(meta: SessionMeta): SessionSummary['state'] {
  if (meta.status !== 'running') return 'idle';
  return meta.pid !== null && pidAlive(meta.pid) ? 'running' : 'interrupted';
}

/**
 * Metadata for a session without a usable meta.json (recorded before the store existed): the
 * first prompt and turns from the transcript, times from the file, the stop reason from the trace.
 */
export function deriveMeta(dir: string, id: string): SessionMeta | null {
  const transcript = path.join(dir, TRANSCRIPT_FILE);
  if (!existsSync(transcript)) return null;
  const stat = statSync(transcript);
  const { messages } = loadTranscript(dir);
  return {
    schema_version: META_SCHEMA_VERSION,
    id,
    workspace: null,
    model: null,
    created: (stat.birthtimeMs > 0 ? stat.birthtime : stat.mtime).toISOString(),
    updated: stat.mtime.toISOString(),
    first_prompt: clipPrompt(firstUserText(messages)),
    turns: messages.filter((m) => m.role === 'assistant').length,
    tasks: 0,
    last_stop_reason: lastTraceReason(dir),
    status: 'idle',
    pid: null,
  };
}

function lastTraceReason(dir: string): StopReason | null {
  const lines = readJsonLines(path.join(dir, TRACE_FILE)).values;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.value as { state?: unknown; reason?: unknown } | null;
    // Only the state line of the stop carries a reason.
    if (typeof line?.state === 'string' && typeof line.reason === 'string') return line.reason as StopReason;
  }
  return null;
}

/**
 * The session an id names: the whole id, or a prefix that only one session has (like git).
 * @example resolveSessionId(home, '3f2a') // => '3f2a91c0-...'
 */
export function resolveSessionId(home: string, idOrPrefix: string): string {
  const dir = sessionDir(home, idOrPrefix);
  if (existsSync(dir)) return idOrPrefix;
  const root = sessionsRoot(home);
  const matches = existsSync(root)
    ? readdirSync(root, { withFileTypes: true })
        .filter((e) => e.isDirectory() && e.name.startsWith(idOrPrefix))
        .map((e) => e.name)
    : [];
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new SessionError(
      'SESSION_AMBIGUOUS',
      `session id "${idOrPrefix}" is ambiguous: ${matches.slice(0, 5).join(', ')}${matches.length > 5 ? ', ...' : ''}`,
    );
  }
  throw new SessionError('SESSION_NOT_FOUND', `no session "${idOrPrefix}" in ${root} (xagent sessions lists them)`);
}

/**
 * The most recently updated session recorded in `workspace` (what --continue picks), or null.
 * @example latestSessionFor(home, '/home/me/project')?.id
 */
export function latestSessionFor(home: string, workspace: string): SessionSummary | null {
  return listSessions(home).sessions.find((s) => s.meta.workspace === workspace) ?? null;
}
