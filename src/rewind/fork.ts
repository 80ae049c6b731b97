import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { sessionDir, sessionsRoot, transcriptPath } from '../sessions/layout.js';
import { META_SCHEMA_VERSION, readMeta, writeMeta, type SessionMeta } from '../sessions/meta.js';
import { openSessionWriter } from '../sessions/session-writer.js';
import { latestSessionFor, resolveSessionId } from '../sessions/store.js';
import { SessionError } from '../sessions/errors.js';
import { UsageError } from '../errors/xagent-error.js';
import { conversationOf } from './conversation.js';
import { messageAt } from './rewind.js';
import { userMessages } from './user-messages.js';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';

export interface ForkRequest {
  home: string;
  /** The session to fork: its id or a unique prefix. */
  from: string;
  /** Fork before user message `at` (rewind's numbering); null: the whole conversation. */
  at: number | null;
  /** The new session's id (a durable task's, src/restate/); default a new one. Its folder may exist, holding only what earlier attempts set aside. */
  id?: string;
}

export interface Fork {
  sessionId: string;
  from: string;
  messages: number;
}

/**
 * `--fork-session`: forks the session `--resume` names, or with `--continue` the latest in
 * `workspace`, whole or up to user message `at`. Throws UsageError without either.
 * @example const fork = forkChosenSession({ home, workspace, resume: '3f2a', continue: false, at: null });
 */
export function forkChosenSession(options: {
  home: string;
  workspace: string;
  resume?: string;
  continue: boolean;
  at: number | null;
}): Fork {
  if (options.resume === undefined && !options.continue) throw new UsageError('--fork-session needs --resume <session> or --continue');
  const from = options.resume ?? latestSessionFor(options.home, options.workspace)?.id;
  if (from === undefined) {
    throw new SessionError('NO_SESSION_TO_CONTINUE', `no session to continue in ${options.workspace} (xagent sessions lists them)`);
  }
  return forkSession({ home: options.home, from, at: options.at });
}

/**
 * Starts a new session whose conversation is the old one's up to user message `at` (or all of it),
 * and returns its id. The old session is only read: its files and its workspace stay as they are.
 * The new session appears whole or not at all: it is built under a hidden name, then renamed.
 * Throws SessionError (no such session) or RewindError (no such message).
 * @example const { sessionId } = forkSession({ home, from: '3f2a', at: 2 });
 */
export function forkSession(request: ForkRequest): Fork {
  const from = resolveSessionId(request.home, request.from);
  const source = sessionDir(request.home, from);
  const file = transcriptPath(source);
  const whole = existsSync(file) ? readFileSync(file) : Buffer.alloc(0);
  // Whole lines only: a torn last line was never part of the conversation.
  const end = request.at === null ? whole.lastIndexOf(0x0a) + 1 : messageAt(source, request.at).offset;
  const prefix = whole.subarray(0, end);

  const id = request.id ?? randomUUID();
  const building = path.join(sessionsRoot(request.home), `.fork-${id}`);
  mkdirSync(building, { recursive: true });
  try {
    writeFileAtomicSync(transcriptPath(building), prefix, { mode: 0o644 });
    const messages = conversationOf(prefix);
    const read = readMeta(source);
    const now = new Date().toISOString();
    const meta: SessionMeta = {
      schema_version: META_SCHEMA_VERSION,
      id,
      workspace: read.kind === 'ok' ? read.meta.workspace : null,
      model: read.kind === 'ok' ? read.meta.model : null,
      created: now,
      updated: now,
      first_prompt: read.kind === 'ok' ? read.meta.first_prompt : '',
      turns: messages.filter((m) => m.role === 'assistant').length,
      tasks: 0,
      last_stop_reason: null,
      status: 'idle',
      pid: null,
    };
    writeMeta(building, meta);
    const sink = openSessionWriter(building, id);
    try {
      const userMessagesKept = request.at === null ? userMessages(source).length : request.at - 1;
      sink.record({ event: 'fork', from_session: from, at: request.at, messages: messages.length, user_messages: userMessagesKept }, now);
    } finally {
      sink.close();
    }
    const target = sessionDir(request.home, id);
    if (existsSync(target)) {
      // A durable task's replay: the folder keeps the earlier attempts (set aside), the fork's files join them.
      for (const name of readdirSync(building)) renameSync(path.join(building, name), path.join(target, name));
      rmSync(building, { recursive: true, force: true });
    } else renameSync(building, target);
    return { sessionId: id, from, messages: messages.length };
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
}
