import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { ToolResult } from '../../../machines/types.js';
import type { CommandSandbox, Tool } from '../types.js';
import {
  CALL_TAG,
  groupAlive,
  killProcessGroup,
  killTagged,
  newCallTag,
  trackGroup,
  untrackGroup,
  waitUntilGone,
} from '../../system/process-group.js';
import { fail, ok } from '../result.js';
import { HeadTailBuffer, MAX_RESULT_CHARS } from '../truncate.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
/** SIGTERM grace when the task was interrupted (Ctrl-C, --timeout): the user is waiting for the process to exit. */
const ABORT_GRACE_MS = 200;
export const MAX_TIMEOUT_MS = 600_000;

interface BashInput {
  command: string;
  timeout_ms?: number;
}

/**
 * `bash`, with the SIGTERM-to-SIGKILL grace injectable. Without a sandbox, containing what a
 * command may do is the permission layer's job; with one, every command runs inside it.
 * @example const tool = createBashTool({ killGraceMs: 500, sandbox });
 */
export function createBashTool(options: { killGraceMs?: number; sandbox?: CommandSandbox } = {}): Tool {
  const graceMs = options.killGraceMs ?? 2000;
  const { sandbox } = options;
  return {
    name: 'bash',
    description:
      'Run a shell command with `bash -c` in the workspace root and return its combined stdout and stderr ' +
      'and exit code. A non-zero exit is reported as an error with the output. No input is available on stdin, ' +
      'so avoid interactive commands (use flags such as --yes, and `git --no-pager`). ' +
      `Times out after timeout_ms (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}); on timeout the ` +
      'command and every process it started are killed, and so are background processes still running when ' +
      'it exits. Long output keeps its beginning and end. Prefer read_file, glob and grep for reading and searching.' +
      (sandbox ? ` ${sandbox.summary}` : ''),
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1, description: 'The command line, run with bash -c.' },
        timeout_ms: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_TIMEOUT_MS,
          description: `Milliseconds before the command is killed. Default ${DEFAULT_TIMEOUT_MS}.`,
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    readOnly: false,
    async execute({ input, workspace, signal, env: settingsEnv }) {
      const { command, timeout_ms: timeoutMs = DEFAULT_TIMEOUT_MS } = input as BashInput;
      if (signal.aborted) return fail('Interrupted before the command started; it did not run.');

      // The call's tag finds what left the process group (setsid, a daemon) once the call is over.
      const callTag = newCallTag();
      const env: NodeJS.ProcessEnv = { ...process.env, ...settingsEnv, [CALL_TAG]: callTag };
      const plain = { command: 'bash', args: ['-c', command], cwd: workspace, env, release: () => {} };
      let proc: typeof plain;
      try {
        proc = sandbox ? sandbox.wrap(plain) : plain;
      } catch (error) {
        // The sandbox refused to set up (a protected path that is a symlink): the command did not run.
        return { ...fail(`The sandbox did not run the command: ${(error as Error).message}`), sandboxed: true };
      }
      // detached: the child leads a new process group, so the whole tree can be signalled at once.
      const child = spawn(proc.command, proc.args, { cwd: proc.cwd, env: proc.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        await once(child, 'spawn');
      } catch (error) {
        proc.release();
        throw error;
      }
      // 'exit' comes in a later turn of the event loop than 'spawn', so listening now misses nothing.
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      const pgid = child.pid as number;
      trackGroup(pgid);

      const output = new HeadTailBuffer(Math.floor((MAX_RESULT_CHARS - 600) / 2));
      const closed = [collect(child.stdout, output), collect(child.stderr, output)];

      let stoppedBy: 'timeout' | 'abort' | undefined;
      let killing: Promise<void> | undefined;
      const stop = (why: 'timeout' | 'abort') => {
        stoppedBy ??= why;
        // An interrupted task is waiting to exit: SIGKILL comes sooner than after a timeout.
        killing ??= killProcessGroup(pgid, { graceMs: why === 'abort' ? Math.min(graceMs, ABORT_GRACE_MS) : graceMs });
      };
      const timer = setTimeout(() => stop('timeout'), timeoutMs);
      const onAbort = () => stop('abort');
      signal.addEventListener('abort', onAbort, { once: true });

      let code: number | null;
      let exitSignal: NodeJS.Signals | null;
      try {
        [code, exitSignal] = await exited;
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      }
      let leftovers = false;
      // A sandbox's PID namespace is torn down just after bwrap exits, and everything in it with it.
      const settled = () => (sandbox ? waitUntilGone(pgid, 250, 2) : Promise.resolve(false));
      if (killing) {
        await killing;
      } else if (groupAlive(pgid) && !(await settled())) {
        // The command exited but left processes behind; they would hold our pipes and outlive the task.
        leftovers = true;
        await killProcessGroup(pgid, { graceMs });
      }
      // Escaped the group (setsid, nohup + setsid, a double fork) but still tagged: ends with the call too.
      if (killTagged(CALL_TAG, callTag) > 0) leftovers = true;
      // The pipes close once every writer is gone; don't wait forever on an escaped one.
      await Promise.race([Promise.all(closed), sleep(1000)]);
      child.stdout.destroy();
      child.stderr.destroy();
      if (!groupAlive(pgid)) untrackGroup(pgid);
      proc.release();

      const done = (result: ToolResult): ToolResult => (sandbox ? { ...result, sandboxed: true } : result);
      const text = output.text();
      const body = text === '' ? '(no output)' : text.replace(/\n$/, '');
      const notes: string[] = [];
      if (leftovers) notes.push('[Background processes still running when the command exited were stopped.]');
      if (stoppedBy === 'timeout') {
        notes.push(
          `[Timed out after ${timeoutMs} ms; the command and all processes it started were killed. ` +
            `Raise timeout_ms (at most ${MAX_TIMEOUT_MS}) or run something quicker.]`,
        );
        return done(fail([body, ...notes].join('\n')));
      }
      if (stoppedBy === 'abort') {
        notes.push('[Interrupted; the command and all processes it started were killed.]');
        return done(fail([body, ...notes].join('\n')));
      }
      if (code === null) {
        notes.push(`[Killed by signal ${exitSignal ?? 'unknown'}.]`);
        return done(fail([body, ...notes].join('\n')));
      }
      // bwrap's own failures (a mount it could not make) start with its name; the command never ran.
      if (sandbox && code === 1 && body.startsWith('bwrap: ')) notes.push('[The sandbox could not be set up, so the command did not run.]');
      notes.push(`[exit code: ${code}]`);
      return done(code === 0 ? ok([body, ...notes].join('\n')) : fail([body, ...notes].join('\n')));
    },
  };
}

export const bashTool: Tool = createBashTool();

function collect(stream: Readable, into: HeadTailBuffer): Promise<void> {
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => into.push(chunk));
  return new Promise((resolve) => {
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}
