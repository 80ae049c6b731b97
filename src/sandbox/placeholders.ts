import { closeSync, lstatSync, mkdirSync, openSync, rmdirSync, unlinkSync } from 'node:fs';
import type { Placeholder } from './mount-plan.js';

/**
 * Empty files and folders made on the host so a read-only mount can cover a protected path that
 * does not exist yet (bwrap needs a mount point, and inside the writable workspace it would make
 * one itself and leave it behind). Counted, because removing a mount point while another sandbox
 * (a long-lived MCP server, say) still uses it would detach that sandbox's mount.
 */
const held = new Map<string, { count: number; kind: Placeholder['kind'] }>();
let exitHookInstalled = false;

/**
 * Creates the missing placeholders (parents first) and returns the function that removes the
 * ones this process made, once nobody holds them, and only while they are still empty.
 * @example const release = holdPlaceholders(plan.placeholders); try { ... } finally { release(); }
 */
export function holdPlaceholders(placeholders: readonly Placeholder[]): () => void {
  const mine: Placeholder[] = [];
  for (const placeholder of placeholders) {
    const entry = held.get(placeholder.path);
    if (entry) {
      entry.count += 1;
      mine.push(placeholder);
    } else if (create(placeholder)) {
      held.set(placeholder.path, { count: 1, kind: placeholder.kind });
      mine.push(placeholder);
    }
  }
  if (mine.length > 0 && !exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', removeAll);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Children before parents: `.git/hooks` before `.git`.
    for (const placeholder of [...mine].reverse()) {
      const entry = held.get(placeholder.path);
      if (entry && --entry.count > 0) continue;
      held.delete(placeholder.path);
      removeIfEmpty(placeholder);
    }
  };
}

/** Placeholders this process made and still holds (for tests and `sandbox check`). */
export function heldPlaceholders(): string[] {
  return [...held.keys()];
}

function create({ path, kind }: Placeholder): boolean {
  try {
    if (kind === 'dir') mkdirSync(path, { mode: 0o755 });
    else closeSync(openSync(path, 'wx', 0o644));
    return true;
  } catch (error) {
    // Someone made it meanwhile: it is theirs, and a real path is protected as it is.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function removeIfEmpty({ path, kind }: Placeholder): void {
  try {
    if (kind === 'dir')
      rmdirSync(path); // fails on a folder that got content (git init, a saved rule): kept
    else if (lstatSync(path).size === 0) unlinkSync(path);
  } catch {
    // gone already, or no longer empty: leave it
  }
}

function removeAll(): void {
  for (const [path, { kind }] of [...held].reverse()) removeIfEmpty({ path, kind });
  held.clear();
}
