import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';

/**
 * What the watchdog runs: it reads `+<pgid>` (a group started) and `-<pgid>` (a group gone) from
 * its stdin, one per line, and when stdin closes (the parent exited or was killed, even with
 * SIGKILL: the kernel closes the pipe) it SIGKILLs every group still listed, then exits. bash,
 * because the bash tool needs it anyway; kill(1) with a negative pid signals a group on every Unix.
 */
const WATCHDOG_SCRIPT = `
groups=' '
while IFS= read -r line; do
  case "$line" in
    +*) groups="$groups\${line#+} " ;;
    -*) groups="\${groups// \${line#-} / }" ;;
  esac
done
for group in $groups; do kill -KILL -- "-$group" 2>/dev/null; done
`;

/**
 * The pipe to the armed watchdog, kept on the process: the CLI's bundle may hold two copies of this
 * module (its ES chunks and the `-p` core), and the bash tool of one must reach the watchdog the
 * worker armed with the other.
 */
const SLOT = Symbol.for('xagent.groupWatchdog');
const holder = globalThis as typeof globalThis & { [SLOT]?: Writable | null };

/**
 * Starts this process's group watchdog: from then on every process group a tool, hook or MCP
 * server starts (`trackGroup`) dies with this process, however it dies. A durable-task worker
 * arms it so that a command of an attempt never outlives that attempt: after a kill -9 of the
 * worker, the retried step's command does not run beside the dead attempt's copy. Idempotent.
 * The watchdog leads a group of its own (a signal to the worker's group does not reach it before
 * it has done its job) and holds nothing open that keeps this process alive.
 * @example armGroupWatchdog(); // once, at start-up
 */
export function armGroupWatchdog(): void {
  if (holder[SLOT]) return;
  // --norc: bash reads ~/.bashrc when its stdin is a socket (it takes it for sshd); a child started there would hold the pipe open.
  const child = spawn('bash', ['--norc', '--noprofile', '-c', WATCHDOG_SCRIPT], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  child.on('error', () => {
    holder[SLOT] = null; // no bash: commands then live as long as they did before
  });
  child.unref();
  const pipe = child.stdin as Writable & { unref?: () => void };
  pipe.on('error', () => {}); // the watchdog gone first: nothing to tell it any more
  pipe.unref?.();
  holder[SLOT] = pipe;
}

/** Tells the watchdog about a group started (`+`) or gone (`-`); nothing when none is armed. */
export function tellWatchdog(change: '+' | '-', pgid: number): void {
  holder[SLOT]?.write(`${change}${pgid}\n`);
}
