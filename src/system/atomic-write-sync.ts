import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Replaces `target` so that a reader (or a process killed half-way) sees the old file or the new
 * one, never a mix. The temporary name carries the pid and random bytes, so two processes writing
 * the same file never share a temporary file; the last rename wins whole.
 * Synchronous: it runs at task end (session metadata), when a person answers "always" (project
 * settings) and for the start-up caches, where the next step needs it on disk. `atomic-write.ts`
 * is the same write without blocking (tools, task start).
 * @example writeFileAtomicSync('/home/me/.xagent/sessions/abc/meta.json', '{"schema_version":1}\n');
 */
export function writeFileAtomicSync(target: string, content: string | Uint8Array, options: { mode?: number } = {}): void {
  const temp = tempPathFor(target);
  try {
    const fd = openSync(temp, 'wx', options.mode ?? 0o600);
    try {
      writeSync(fd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Random once per process: with the pid and a counter, no two writes (of this process or another) share a name. */
const processTag = `${process.pid}.${randomBytes(4).toString('hex')}`;
let written = 0;

/**
 * The temporary file a write of `target` goes through: same folder (so rename is atomic), this
 * process's own name. A counter, not random bytes per write: those were ~1 % of the CPU of a
 * thousand tasks starting at once.
 */
export function tempPathFor(target: string): string {
  // The folder is the target's own: joined without normalising it again (joinResolved, below).
  return joinResolved(path.dirname(target), `.${path.basename(target)}.${processTag}.${written++}.tmp`);
}

/**
 * `path.join(dir, name)` for a `dir` already resolved and a plain `name` (no separators, no `..`),
 * without normalising `dir` again. A one-answer run then does too little path work for V8 to
 * optimise path's normaliser, and never starts its optimising compiler (3.5 MB of a 55 MB process,
 * bench/README.md, issue 40).
 * @example joinResolved('/work/repo', 'CLAUDE.md') // '/work/repo/CLAUDE.md'
 */
export function joinResolved(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? `${dir}${name}` : `${dir}${path.sep}${name}`;
}
