import path from 'node:path';

/** A blob's name: the SHA-256 of its bytes, in lower-case hex, and nothing else (no `/`, no `..`). */
export const BLOB_NAME = /^[0-9a-f]{64}$/;

/** A rewind's id (a UUID), which names files beside its targets. */
const REWIND_ID = /^[0-9a-f-]{1,64}$/;

type Record_ = Record<string, unknown>;
const isRecord = (value: unknown): value is Record_ => typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * Why `file` is not a path xagent records (absolute, normalised, no `..`, no NUL), or null.
 * @example badPath('/ws/../etc/passwd') // 'names a path that is not absolute and normalised'
 */
export function badPath(file: unknown): string | null {
  if (typeof file !== 'string' || file.includes('\0') || !path.isAbsolute(file) || path.normalize(file) !== file)
    return `names a path that is not absolute and normalised (${JSON.stringify(String(file).slice(0, 200))})`;
  if (file.split('/').includes('..') || file === '/') return `names a path with ".." (${JSON.stringify(file.slice(0, 200))})`;
  return null;
}

function badState(state: unknown): string | null {
  if (!isRecord(state)) return 'has a file state that is not an object';
  if (state.kind === 'absent' || state.kind === 'other') return null;
  if (state.kind !== 'file') return `has an unknown file state ${JSON.stringify(state.kind)}`;
  if (typeof state.sha256 !== 'string' || !BLOB_NAME.test(state.sha256))
    return `names a blob that is not a SHA-256 (${JSON.stringify(String(state.sha256).slice(0, 200))})`;
  if (!count(state.size) || !count(state.mode) || (state.mode as number) > 0o7777) return 'has a file size or mode out of range';
  return null;
}

function badChange(change: unknown): string | null {
  if (!isRecord(change)) return 'has a change that is not an object';
  if (typeof change.kept !== 'boolean') return 'has a change without `kept`';
  return badPath(change.file) ?? badState(change.before) ?? badState(change.after);
}

/**
 * Why a parsed line of the checkpoint log is not one xagent writes, or null when it is.
 * @example invalidLine({ v: 1, kind: 'change', file: '../x', ... }) // 'names a path that is not absolute ...'
 */
export function invalidLine(line: object): string | null {
  const value = line as Record_;
  if (typeof value.ts !== 'string' || !count(value.transcript_bytes)) return 'has no time or transcript size';
  if (value.kind === 'change') return badChange(value);
  if (value.kind !== 'rewind') return `has an unknown kind ${JSON.stringify(value.kind)}`;
  if (typeof value.id !== 'string' || !REWIND_ID.test(value.id)) return 'has a rewind id that is not a UUID';
  if (!Array.isArray(value.changes)) return 'has a rewind without changes';
  for (const change of value.changes) {
    const why = badChange(change);
    if (why) return why;
  }
  return null;
}
