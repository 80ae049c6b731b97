import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tellWatchdog } from './group-watchdog.js';

/**
 * Every live (non-zombie) process, read from /proc (Linux only): its pid, parent and group.
 * "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so fields count from the last ')'.
 */
function* liveProcesses(): Generator<{ pid: number; ppid: number; pgrp: number }> {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') continue;
    yield { pid: Number(name), ppid: Number(fields[1]), pgrp: Number(fields[2]) };
  }
}

/**
 * Whether any live (non-zombie) process is still in the group. On Linux this reads /proc, because
 * `kill(-pgid, 0)` also counts zombies that nobody reaps (an orphan in a container without init).
 * @example if (groupAlive(child.pid)) await killProcessGroup(child.pid);
 */
export function groupAlive(pgid: number): boolean {
  if (process.platform === 'linux') {
    for (const p of liveProcesses()) if (p.pgrp === pgid) return true;
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
  tellWatchdog('+', pgid);
}

export function untrackGroup(pgid: number): void {
  tracked.delete(pgid);
  tellWatchdog('-', pgid);
}

/** SIGKILLs every tracked process group at once, and every process tagged with this run: the last step before the process exits. */
export function killTrackedGroups(): void {
  for (const pgid of tracked) signalGroup(pgid, 'SIGKILL');
  tracked.clear();
  const tag = process.env[RUN_TAG];
  if (tag && tag === ownRunTag) killTagged(RUN_TAG, tag);
}

/**
 * Tags. A process that calls setsid (or a daemon that double-forks) leaves its process group, and
 * outside the sandbox no PID namespace holds it; but it keeps its environment. Every process a
 * bash call starts carries CALL_TAG (unique per call), every process of the run RUN_TAG, and what
 * still carries one when its call or the run ends is killed. A process that empties its own
 * environment (`env -i`) is not found this way: only the sandbox's PID namespace holds that one.
 */
export const CALL_TAG = 'XAGENT_CALL_TAG';
export const RUN_TAG = 'XAGENT_RUN_TAG';
let ownRunTag: string | undefined;

/**
 * Puts this run's tag in its environment, so every child (bash, hooks, git, sandboxed servers)
 * inherits it; the CLI calls it once. A tag inherited from an outer xagent is replaced, never shared.
 */
export function tagThisRun(): void {
  ownRunTag = `${process.pid}.${Math.random().toString(36).slice(2)}`;
  process.env[RUN_TAG] = ownRunTag;
}

/** A fresh value for CALL_TAG. */
export function newCallTag(): string {
  return `${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
}

/**
 * SIGKILLs every process (but this one) whose environment holds `name=value`; returns how many.
 * Linux only (/proc); elsewhere 0. Processes of other users cannot be read and are left alone.
 * @example killTagged(CALL_TAG, tag) // 1: the `setsid sleep` that left the group
 */
export function killTagged(name: string, value: string): number {
  if (process.platform !== 'linux') return 0;
  const needle = `\0${name}=${value}\0`;
  let killed = 0;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of names) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue; // gone, or not ours to read
    }
    if (!`\0${environ}${environ.endsWith('\0') ? '' : '\0'}`.includes(needle)) continue;
    try {
      process.kill(Number(entry), 'SIGKILL');
      killed += 1;
    } catch {
      // exited meanwhile
    }
  }
  return killed;
}

/**
 * Ends a whole process group, grandchildren included: SIGTERM, then SIGKILL for whatever is
 * still alive after `graceMs`. Resolves once no live process is left (or after a bounded wait).
 * @example await killProcessGroup(child.pid, { graceMs: 2000 });
 */
export async function killProcessGroup(pgid: number, options: { graceMs?: number } = {}): Promise<void> {
  const graceMs = options.graceMs ?? 2000;
  // Children that left the group (setsid) while their parent is still in it: found by parent pid
  // now, before the parents die and they are handed to init (an MCP server's, a hook's).
  const escaped = escapedDescendants(pgid);
  for (const pid of escaped) signalPid(pid, 'SIGTERM');
  if (!signalGroup(pgid, 'SIGTERM')) {
    for (const pid of escaped) signalPid(pid, 'SIGKILL');
    return;
  }
  const gone = await waitUntilGone(pgid, graceMs);
  for (const pid of escaped) signalPid(pid, 'SIGKILL');
  if (gone) return;
  signalGroup(pgid, 'SIGKILL');
  await waitUntilGone(pgid, 2000);
}

/**
 * Live processes that descend (by parent pid) from a member of the group but are not in it. Linux
 * only (/proc); elsewhere none. A process whose parent already exited is not found this way: the
 * tags (CALL_TAG, RUN_TAG) or the sandbox's PID namespace are what hold those.
 */
export function escapedDescendants(pgid: number): number[] {
  if (process.platform !== 'linux') return [];
  const children = new Map<number, number[]>();
  const group = new Map<number, number>();
  for (const { pid, ppid, pgrp } of liveProcesses()) {
    group.set(pid, pgrp);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [...group].filter(([, g]) => g === pgid).map(([pid]) => pid);
  const seen = new Set(queue);
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (seen.has(child) || child === process.pid) continue;
      seen.add(child);
      queue.push(child);
      if (group.get(child) !== pgid) found.push(child);
    }
  }
  return found;
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
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
