import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { groupAlive, killProcessGroup, trackGroup, untrackGroup } from '../system/process-group.js';
import type { CommandSandbox } from '../tools/types.js';

/** What one command hook did. */
export interface CommandRun {
  /** null when it was killed (timeout, abort) or could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  /** Why it could not run at all (bash missing, the workspace gone). */
  spawnError?: string;
}

/** Each stream keeps at most this much; a hook that floods its output cannot fill the memory. */
export const MAX_HOOK_OUTPUT = 64 * 1024;
/** SIGTERM grace after a timeout; an interrupted task waits less. */
const TIMEOUT_GRACE_MS = 1000;
const ABORT_GRACE_MS = 200;

/**
 * Runs `command` with `bash -c` in `cwd` as the leader of its own process group, `stdin` on its
 * standard input. At `timeoutMs` or on abort the whole group gets SIGTERM, then SIGKILL; whatever
 * it left running after it exited is stopped too, so a hook never outlives its run. With a
 * sandbox (--sandbox, unless the settings take hooks out of it) the command runs inside it.
 * @example await runCommand({ command: './check.sh', cwd: '/ws', stdin: '{}', timeoutMs: 60_000, signal })
 */
export async function runCommand(options: {
  command: string;
  cwd: string;
  stdin: string;
  timeoutMs: number;
  signal: AbortSignal;
  env?: NodeJS.ProcessEnv;
  sandbox?: CommandSandbox;
}): Promise<CommandRun> {
  const { command, cwd, stdin, timeoutMs, signal } = options;
  const started = Date.now();
  const result = (fields: Partial<CommandRun>): CommandRun => ({
    exitCode: null,
    stdout: '',
    stderr: '',
    durationMs: Date.now() - started,
    timedOut: false,
    aborted: false,
    ...fields,
  });
  if (signal.aborted) return result({ aborted: true });
  const plain = { command: 'bash', args: ['-c', command], cwd, env: { ...process.env, ...options.env } };
  const proc = options.sandbox ? options.sandbox.wrap(plain) : { ...plain, release: () => undefined };
  // detached: the hook leads a new process group, so the whole tree can be signalled at once.
  const child = spawn(proc.command, proc.args, { cwd: proc.cwd, env: proc.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  try {
    await once(child, 'spawn');
  } catch (error) {
    proc.release();
    return result({ spawnError: (error as Error).message });
  }
  const pgid = child.pid as number;
  trackGroup(pgid);
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  // A hook that does not read its stdin closes the pipe: that is its business, not an error.
  child.stdin.on('error', () => undefined);
  child.stdin.end(stdin);
  const out = capture(child.stdout);
  const err = capture(child.stderr);

  let stoppedBy: 'timeout' | 'abort' | undefined;
  let killing: Promise<void> | undefined;
  const stop = (why: 'timeout' | 'abort') => {
    stoppedBy ??= why;
    killing ??= killProcessGroup(pgid, { graceMs: why === 'abort' ? ABORT_GRACE_MS : TIMEOUT_GRACE_MS });
  };
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onAbort = () => stop('abort');
  signal.addEventListener('abort', onAbort, { once: true });
  let code: number | null;
  try {
    [code] = await exited;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
  if (killing) await killing;
  else if (groupAlive(pgid)) await killProcessGroup(pgid, { graceMs: ABORT_GRACE_MS });
  // The pipes close once every writer is gone; an escaped one (setsid) must not hold the run.
  await Promise.race([Promise.all([out.closed, err.closed]), sleep(1000)]);
  child.stdout.destroy();
  child.stderr.destroy();
  if (!groupAlive(pgid)) untrackGroup(pgid);
  proc.release();
  return result({
    exitCode: stoppedBy ? null : code,
    stdout: out.text(),
    stderr: err.text(),
    timedOut: stoppedBy === 'timeout',
    aborted: stoppedBy === 'abort',
  });
}

/** Collects a stream up to MAX_HOOK_OUTPUT characters; the rest is counted, not kept. */
function capture(stream: Readable): { closed: Promise<void>; text: () => string } {
  let text = '';
  let dropped = 0;
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const room = MAX_HOOK_OUTPUT - text.length;
    if (room > 0) text += chunk.slice(0, room);
    dropped += Math.max(0, chunk.length - Math.max(0, room));
  });
  const closed = new Promise<void>((resolve) => {
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
  return { closed, text: () => (dropped > 0 ? `${text}\n[${dropped} more characters cut]` : text) };
}
