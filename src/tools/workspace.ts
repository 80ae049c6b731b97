import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** A path the file tools may touch: `absolute` is real (symlinks resolved), `display` is for messages. */
export interface ResolvedPath {
  ok: true;
  /** Real path on disk; for a file that does not exist yet, its real parent joined with the rest. */
  absolute: string;
  /** Workspace-relative path with `/` separators (`.` for the root), as the model should write it. */
  display: string;
  /** Whether the path itself exists. */
  exists: boolean;
}

export interface RefusedPath {
  ok: false;
  /** Words the model can act on; goes straight into an error result. */
  message: string;
}

/**
 * Resolves a model-supplied path against the workspace root and refuses anything that lands
 * outside it: `..` escapes, absolute paths elsewhere, and symlinks (the file or any parent)
 * whose real path is outside. A path that does not exist yet is checked through the real path
 * of its nearest existing parent, so `write_file` cannot create files through a symlinked folder.
 * @example
 * const r = await resolveInWorkspace('/repo', 'src/a.ts');
 * if (!r.ok) return { content: r.message, isError: true };
 * await readFile(r.absolute);
 */
export async function resolveInWorkspace(workspace: string, requested: string): Promise<ResolvedPath | RefusedPath> {
  try {
    return await resolve(workspace, requested);
  } catch (error) {
    // Path errors the model can fix are results, not a stopped task.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return refuse(`Path "${requested}" goes through a loop of symbolic links; refused.`);
    if (code === 'ENAMETOOLONG')
      return refuse(`Path "${requested.slice(0, 200)}${requested.length > 200 ? '…' : ''}" is too long for the file system.`);
    if (code === 'EACCES') return refuse(`Path "${requested}": permission denied by the operating system.`);
    throw error;
  }
}

async function resolve(workspace: string, requested: string): Promise<ResolvedPath | RefusedPath> {
  if (requested.includes('\0')) return refuse(`Path ${JSON.stringify(requested)} contains a NUL byte; use a plain relative path.`);
  // Synchronous: realpath(3) on a local path, without a thread-pool round trip per call (open-regular.ts says why).
  const root = realpathSync.native(workspace);
  const lexical = path.resolve(root, requested === '' ? '.' : requested);
  if (!isInside(root, lexical)) {
    return refuse(
      `Path "${requested}" is outside the workspace (${root}). File tools only reach files inside it; use a path relative to the workspace root.`,
    );
  }

  // Walk up until something exists, then resolve that part for real.
  const missing: string[] = [];
  let existing = lexical;
  for (;;) {
    const real = realpathOrMissing(existing);
    if (real === 'missing') {
      const parent = path.dirname(existing);
      if (parent === existing) throw new Error(`no existing ancestor for ${lexical}`);
      missing.unshift(path.basename(existing));
      existing = parent;
      continue;
    }
    if (real === 'dangling') {
      return refuse(`Path "${requested}" goes through a symbolic link whose target does not exist; refused.`);
    }
    if (!isInside(root, real)) {
      return refuse(`Path "${requested}" resolves through a symbolic link to ${real}, which is outside the workspace (${root}); refused.`);
    }
    const absolute = path.join(real, ...missing);
    return { ok: true, absolute, display: toDisplay(root, lexical), exists: missing.length === 0 };
  }
}

/** True when `candidate` is `root` or below it. Both must be absolute and normalised. */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** Workspace-relative path with forward slashes, `.` for the root itself. */
export function toDisplay(root: string, absolute: string): string {
  const rel = path.relative(root, absolute);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

function realpathOrMissing(p: string): string | 'missing' | 'dangling' {
  try {
    return realpathSync.native(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    // realpath also fails with ENOENT for a link pointing nowhere; writing through it would escape.
    let stat: ReturnType<typeof lstatSync> | undefined;
    try {
      stat = lstatSync(p);
    } catch {
      stat = undefined;
    }
    return stat?.isSymbolicLink() ? 'dangling' : 'missing';
  }
}

function refuse(message: string): RefusedPath {
  return { ok: false, message };
}
