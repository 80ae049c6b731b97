import os from 'node:os';
import path from 'node:path';
import { SessionError } from './errors.js';

/**
 * Where xagent keeps things on disk: the home folder and each session's folder and files. Every
 * other module asks here instead of joining paths itself.
 */

export const TRANSCRIPT_FILE = 'transcript.jsonl';
export const TRACE_FILE = 'trace.jsonl';
export const AUDIT_FILE = 'audit.jsonl';

/** `$XAGENT_HOME`, else `~/.xagent`. */
export function xagentHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.XAGENT_HOME || path.join(os.homedir(), '.xagent');
}

/** Ids are directory names we chose (UUIDs); anything that could climb out of sessions/ is refused. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function sessionsRoot(home: string): string {
  return path.join(home, 'sessions');
}

export function sessionDir(home: string, id: string): string {
  if (!SESSION_ID.test(id) || id.includes('..')) throw new SessionError('SESSION_ID_INVALID', `"${id}" is not a session id`);
  return path.join(sessionsRoot(home), id);
}

/** The transcript of the session kept in `dir` (what hooks get as `transcript_path`). */
export function transcriptPath(dir: string): string {
  return path.join(dir, TRANSCRIPT_FILE);
}
