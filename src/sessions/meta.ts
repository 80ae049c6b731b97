import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { STOP_REASONS, type StopReason, type Usage } from '../../machines/types.js';
import { replaceOwnFile } from '../system/replace-own-file.js';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';

/** The meta.json format this xagent writes. Older versions are read; newer ones are refused. */
export const META_SCHEMA_VERSION = 1;
export const META_FILE = 'meta.json';

/** `meta.json`: what `xagent sessions` lists and `--continue` searches, rewritten whole (atomically). */
export interface SessionMeta {
  schema_version: typeof META_SCHEMA_VERSION;
  id: string;
  /** Absolute, real path of the workspace the last task ran in. */
  workspace: string | null;
  model: string | null;
  /** ISO 8601. */
  created: string;
  updated: string;
  first_prompt: string;
  /** Model rounds over all tasks (assistant messages in the transcript). */
  turns: number;
  /** Tasks started, including one whose process died. */
  tasks: number;
  /** Null until a task ends (or when the only task's process died). */
  last_stop_reason: StopReason | null;
  /** `running` from task start to task end: still `running` with a dead pid means the process died. */
  status: 'running' | 'idle';
  pid: number | null;
  /** Tokens over all tasks (absent in sessions recorded before it was kept). */
  usage?: Usage;
  /** US dollars over all tasks; null once any task's price was unknown. */
  total_cost_usd?: number | null;
}

export type MetaRead =
  | { kind: 'ok'; meta: SessionMeta }
  | { kind: 'missing' }
  | { kind: 'malformed'; reason: string }
  /** Written by a newer xagent: readable by it, not by us, and we must not overwrite it. */
  | { kind: 'unsupported'; version: unknown };

/** Longest first prompt kept in meta.json; the transcript has the whole text. */
const FIRST_PROMPT_CHARS = 500;

export function clipPrompt(prompt: string): string {
  return prompt.length > FIRST_PROMPT_CHARS ? `${prompt.slice(0, FIRST_PROMPT_CHARS - 1)}…` : prompt;
}

/**
 * Reads and checks `<dir>/meta.json`.
 * @example const read = readMeta(dir); if (read.kind === 'ok') console.log(read.meta.first_prompt);
 */
export function readMeta(dir: string): MetaRead {
  const file = path.join(dir, META_FILE);
  if (!existsSync(file)) return { kind: 'missing' };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { kind: 'malformed', reason: `meta.json is not JSON: ${(error as Error).message}` };
  }
  return parseMeta(value);
}

/** Checks a parsed meta.json; exported for the fixtures' tests. */
export function parseMeta(value: unknown): MetaRead {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { kind: 'malformed', reason: 'meta.json is not an object' };
  const v = value as Record<string, unknown>;
  if (v.schema_version !== META_SCHEMA_VERSION) {
    if (typeof v.schema_version === 'number' && v.schema_version > META_SCHEMA_VERSION) {
      return { kind: 'unsupported', version: v.schema_version };
    }
    return {
      kind: 'malformed',
      reason: `meta.json has schema_version ${JSON.stringify(v.schema_version)}; expected ${META_SCHEMA_VERSION}`,
    };
  }
  const wrong = (field: string) => ({ kind: 'malformed' as const, reason: `meta.json: "${field}" is missing or has the wrong type` });
  const isTime = (x: unknown) => typeof x === 'string' && !Number.isNaN(Date.parse(x));
  if (typeof v.id !== 'string' || v.id === '') return wrong('id');
  if (!isTime(v.created)) return wrong('created');
  if (!isTime(v.updated)) return wrong('updated');
  if (v.workspace !== null && typeof v.workspace !== 'string') return wrong('workspace');
  if (v.model !== null && typeof v.model !== 'string') return wrong('model');
  if (typeof v.first_prompt !== 'string') return wrong('first_prompt');
  if (!Number.isInteger(v.turns) || !Number.isInteger(v.tasks)) return wrong('turns');
  if (v.last_stop_reason !== null && !(STOP_REASONS as readonly unknown[]).includes(v.last_stop_reason)) return wrong('last_stop_reason');
  if (v.status !== 'running' && v.status !== 'idle') return wrong('status');
  if (v.pid !== null && !Number.isInteger(v.pid)) return wrong('pid');
  return { kind: 'ok', meta: value as SessionMeta };
}

/** Replaces `<dir>/meta.json` atomically: a reader, or a process killed mid-write, never sees half of it. */
export function writeMeta(dir: string, meta: SessionMeta): void {
  writeFileAtomicSync(path.join(dir, META_FILE), metaText(meta));
}

/**
 * `writeMeta` without blocking, at each task's start and end: still whole (a temporary file renamed
 * over it) but not flushed to the disk. meta.json is derived from the transcript, and an
 * operating-system crash that leaves it old or empty is read as such and rebuilt, so a task pays
 * no fsync for it (bench/README.md, issue 40: two per task at a thousand tasks).
 * @example await writeMetaAsync(dir, { ...meta, status: 'running', pid: process.pid });
 */
export async function writeMetaAsync(dir: string, meta: SessionMeta): Promise<void> {
  await replaceOwnFile(path.join(dir, META_FILE), metaText(meta));
}

function metaText(meta: SessionMeta): string {
  return `${JSON.stringify(meta, null, 2)}\n`;
}

/** True when a process with this pid exists (it may belong to someone else: EPERM still means alive). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
