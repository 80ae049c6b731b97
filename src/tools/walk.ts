import { opendir } from 'node:fs/promises';
import path from 'node:path';

/** Folders the search tools skip unless the caller names them. */
export const SKIPPED_DIRS = ['.git', 'node_modules'] as const;

export interface WalkEntry {
  /** Path relative to the walk's root, `/`-separated. */
  relative: string;
  absolute: string;
  kind: 'file' | 'symlink';
}

export interface WalkOptions {
  /** Folder names not to descend into (matched against the name only, at any depth). */
  skipDirs: readonly string[];
  /** Called for each folder below the root; returning false prunes it. */
  enterDir?: (relative: string) => boolean;
  signal?: AbortSignal;
}

/**
 * Yields the files below `root` in no particular order. Symbolic links are reported as such and
 * never followed, so a walk cannot leave the workspace or loop. Hidden files are included.
 * @example for await (const e of walk('/repo', { skipDirs: SKIPPED_DIRS })) console.log(e.relative);
 */
export async function* walk(root: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  const pending: string[] = [''];
  while (pending.length > 0) {
    options.signal?.throwIfAborted();
    const relDir = pending.pop() as string;
    const dir = relDir === '' ? root : path.join(root, relDir);
    let handle;
    try {
      handle = await opendir(dir);
    } catch (error) {
      // A folder we may not read is skipped, as ripgrep does.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT') continue;
      throw error;
    }
    for await (const entry of handle) {
      const relative = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (options.skipDirs.includes(entry.name)) continue;
        if (options.enterDir && !options.enterDir(relative)) continue;
        pending.push(relative);
      } else if (entry.isFile()) {
        yield { relative, absolute: path.join(root, relative), kind: 'file' };
      } else if (entry.isSymbolicLink()) {
        yield { relative, absolute: path.join(root, relative), kind: 'symlink' };
      }
    }
  }
}

/** Sorts paths the same way everywhere (by UTF-16 code units), so outputs can be compared. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
