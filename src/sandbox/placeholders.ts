import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';
import type { Placeholder } from './mount-plan.js';

/**
 * Files and folders made on the host so a read-only mount can cover a protected path that does
 * not exist yet (bwrap needs a mount point, and inside the writable workspace it would make one
 * itself and leave it behind). Counted, because removing a mount point while another sandbox (a
 * long-lived MCP server, say) still uses it would detach that sandbox's mount.
 *
 * A kill -9 skips every cleanup, so each process lists what it holds in a journal file under the
 * xagent home before making it; the next run sweeps the journals of processes that are gone.
 * Placeholder files read as absent (`{}` for .mcp.json), so even one no sweep reached breaks nothing.
 */
const held = new Map<string, { count: number; placeholder: Placeholder }>();
let exitHookInstalled = false;
let journalDir: string | undefined;

const JOURNAL = /^placeholders-(\d+)\.json$/;

/**
 * Creates the missing placeholders (parents first) and returns the function that removes the
 * ones this process made, once nobody holds them, and only while they are still placeholders.
 * `journal`: the folder where they are listed for a sweep after a crash (see sweepPlaceholders).
 * @example const release = holdPlaceholders(plan.placeholders, '/home/me/.xagent/sandbox'); try { ... } finally { release(); }
 */
export function holdPlaceholders(placeholders: readonly Placeholder[], journal?: string): () => void {
  if (journal !== undefined) journalDir = journal;
  const mine: Placeholder[] = [];
  const fresh = placeholders.filter((p) => !held.has(p.path));
  // Listed before they exist: a crash between the two leaves a journal line, never an unlisted file.
  if (fresh.length > 0) writeJournal([...[...held.values()].map((h) => h.placeholder), ...fresh]);
  for (const placeholder of placeholders) {
    const entry = held.get(placeholder.path);
    if (entry) {
      entry.count += 1;
      mine.push(placeholder);
    } else if (create(placeholder)) {
      held.set(placeholder.path, { count: 1, placeholder });
      mine.push(placeholder);
    }
  }
  if (fresh.length > 0) writeJournal([...held.values()].map((h) => h.placeholder));
  if (mine.length > 0 && !exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', removeAll);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Children before parents.
    for (const placeholder of [...mine].reverse()) {
      const entry = held.get(placeholder.path);
      if (entry && --entry.count > 0) continue;
      held.delete(placeholder.path);
      removeIfPlaceholder(placeholder);
    }
    writeJournal([...held.values()].map((h) => h.placeholder));
  };
}

/** Placeholders this process made and still holds (for tests and `sandbox check`). */
export function heldPlaceholders(): string[] {
  return [...held.keys()];
}

/**
 * Removes what processes killed without cleaning up (kill -9, a power cut) left behind: every
 * journal in `journal` whose process is gone, and each placeholder it lists that is still one (an
 * empty folder, a file with the placeholder's content). Never throws; a live process's are kept.
 * @example sweepPlaceholders(path.join(xagentHome, 'sandbox'))
 */
export function sweepPlaceholders(journal: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(journal);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = Number(JOURNAL.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    const file = path.join(journal, name);
    try {
      const listed = JSON.parse(readFileSync(file, 'utf8')) as Placeholder[];
      for (const placeholder of [...listed].reverse()) if (removeIfPlaceholder(placeholder)) removed.push(placeholder.path);
      unlinkSync(file);
    } catch {
      // a torn or foreign file: left for a person to look at
    }
  }
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process's journal: what it holds now; none when it holds nothing. Atomic (temp, then rename). */
function writeJournal(list: readonly Placeholder[]): void {
  if (journalDir === undefined) return;
  const file = path.join(journalDir, `placeholders-${process.pid}.json`);
  try {
    if (list.length === 0) {
      unlinkSync(file);
      return;
    }
    mkdirSync(journalDir, { recursive: true, mode: 0o700 });
    writeFileAtomicSync(file, JSON.stringify(list));
  } catch {
    // no journal (a read-only home): the placeholders still read as absent
  }
}

function create({ path: target, kind, content }: Placeholder): boolean {
  try {
    if (kind === 'dir') mkdirSync(target, { mode: 0o755 });
    else {
      const fd = openSync(target, 'wx', 0o644);
      try {
        if (content) writeSync(fd, content);
      } finally {
        closeSync(fd);
      }
    }
    return true;
  } catch (error) {
    // Someone made it meanwhile: it is theirs, and a real path is protected as it is.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Removes a placeholder that is still one: a folder while empty, a file while it holds what we wrote. */
function removeIfPlaceholder({ path: target, kind, content = '' }: Placeholder): boolean {
  try {
    if (kind === 'dir')
      rmdirSync(target); // fails on a folder that got content (a saved rule): kept
    else {
      // lstat first: a FIFO or a link put there must not be read (it could block) nor removed.
      const stats = lstatSync(target);
      if (!stats.isFile() || stats.size !== Buffer.byteLength(content) || readFileSync(target, 'utf8') !== content) return false;
      unlinkSync(target);
    }
    return true;
  } catch {
    return false; // gone already, or no longer a placeholder: leave it
  }
}

function removeAll(): void {
  for (const [, { placeholder }] of [...held].reverse()) removeIfPlaceholder(placeholder);
  held.clear();
  writeJournal([]);
}
