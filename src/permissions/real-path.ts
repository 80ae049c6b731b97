import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { resolveToolPath } from './path-glob.js';

/**
 * Where a path input really points once symlinks are followed, as a path input again
 * (workspace-relative when it lands inside the real workspace, else absolute). A file that does
 * not exist yet resolves through its deepest existing parent. Null when it cannot be resolved
 * (a symlink loop, a name too long, no permission): rules then treat it as matching nothing an
 * allow rule names and everything a deny rule might.
 * @example realPathInput('src/cfg/settings.json', '/ws') // '.xagent/settings.json' when src/cfg -> ../.xagent
 */
export function realPathInput(input: string, workspace: string): string | null {
  let realRoot: string;
  try {
    realRoot = realpathSync(workspace);
  } catch {
    return input; // no workspace on disk (a library caller's virtual root): nothing to follow
  }
  try {
    const real = realpathOfMaybeMissing(resolveToolPath(input, workspace).absolute);
    const relative = path.relative(realRoot, real);
    if (relative === '') return '.';
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return real;
    return relative.split(path.sep).join('/');
  } catch {
    return null;
  }
}

/** realpath(3) that also follows a dangling last link: writing through it creates its target. */
function realpathOfMaybeMissing(absolute: string, hops = 0): string {
  if (hops > 40) throw new Error('too many symbolic links');
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const link = readLink(current);
      if (link !== null)
        return realpathOfMaybeMissing(path.join(path.resolve(path.dirname(current), link), ...missing.reverse()), hops + 1);
      const parent = path.dirname(current);
      if (parent === current) throw error;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function readLink(file: string): string | null {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : null;
  } catch {
    return null;
  }
}
