import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Whether any live (non-zombie) process is still in the group. On Linux this reads /proc, because
 * `kill(-pgid, 0)` also counts zombies that nobody reaps (an orphan in a container without init).
 * @example if (groupAlive(child.pid)) await killProcessGroup(child.pid);
 */
export function groupAlive(pgid: number): boolean {
  if (process.platform === 'linux') {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        continue; // exited while we looked
      }
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
    }
    return false;
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

// Process groups started by tools and not yet known to be gone: the CLI kills them before it exits.
const tracked = new Set<number>();

/** Remembers a process group a tool started, until `untrackGroup`. */
export function trackGroup(pgid: number): void {
  tracked.add(pgid);
}

export function untrackGroup(pgid: number): void {
  tracked.delete(pgid);
}

/** SIGKILLs every tracked process group at once: the last step before the process exits. */
export function killTrackedGroups(): void {
  for (const pgid of tracked) signalGroup(pgid, 'SIGKILL');
  tracked.clear();
}

/**
 * Ends a whole process group, grandchildren included: SIGTERM, then SIGKILL for whatever is
 * still alive after `graceMs`. Resolves once no live process is left (or after a bounded wait).
 * @example await killProcessGroup(child.pid, { graceMs: 2000 });
 */
export async function killProcessGroup(pgid: number, options: { graceMs?: number } = {}): Promise<void> {
  const graceMs = options.graceMs ?? 2000;
  if (!signalGroup(pgid, 'SIGTERM')) return;
  if (await waitUntilGone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitUntilGone(pgid, 2000);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Resolves true once no live process is left in the group, false if some still are after `ms`. */
export async function waitUntilGone(pgid: number, ms: number, pollMs = 25): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!groupAlive(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(pollMs);
  }
}
