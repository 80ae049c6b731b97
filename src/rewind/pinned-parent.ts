import { closeSync, constants, lstatSync, openSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { MovedPathError, pathOfDescriptor } from '../system/handle-path.js';
import { isInside } from '../tools/workspace.js';

/**
 * Runs `act` on `file` through the folder that holds it, opened without following a link and
 * checked (on the descriptor, as the file tools do) to be `dirname(file)` itself: the write,
 * rename or deletion then happens in that folder even if a folder on the way is swapped for a
 * symbolic link meanwhile. Where the kernel cannot say where a descriptor is (no /proc), the
 * O_NOFOLLOW open of the folder is the only guard. Throws MovedPathError when the folder moved.
 * @example inParentOf('/ws/src/a.ts', (at) => renameSync(asideAt, at));
 */
export function inParentOf<T>(file: string, act: (at: string) => T): T {
  const dir = path.dirname(file);
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    const real = pathOfDescriptor(fd);
    if (real !== null && real !== dir) throw new MovedPathError(dir, real);
    return act(real === null ? file : path.join(`/proc/self/fd/${fd}`, path.basename(file)));
  } finally {
    closeSync(fd);
  }
}

/**
 * Why a rewind must not write `file`, or null when it may: the file lies outside the workspace
 * (`workspace`), or its nearest existing folder is reached through a symbolic link (a
 * folder replaced by a link since xagent changed the file: writing there would write elsewhere).
 * @example outsideWhy('/ws', '/ws/conf/.bashrc') // 'conf is now a symbolic link to /home/me'
 */
export function outsideWhy(workspace: string | null, file: string): string | null {
  const root = realOrNull(workspace);
  if (root === null) return 'the session records no workspace to check it against';
  if (!isInside(root, file) || file === root) return `it is outside the workspace (${root})`;
  let dir = path.dirname(file);
  while (!exists(dir)) dir = path.dirname(dir);
  let real: string;
  try {
    real = realpathSync.native(dir);
  } catch (error) {
    return `its folder cannot be resolved (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  if (real === dir) return isInside(root, real) ? null : `it is outside the workspace (${root})`;
  return `${path.relative(root, dir) || dir} now leads through a symbolic link to ${real}`;
}

/** The workspace's real path, or null when there is none (no record, or gone). */
export function realOrNull(dir: string | null): string | null {
  try {
    return dir === null ? null : realpathSync.native(dir);
  } catch {
    return null;
  }
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
