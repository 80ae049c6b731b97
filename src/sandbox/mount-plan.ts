import { lstatSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The user's secrets folders and files, hidden inside the sandbox (plus the xagent home and `sandbox.hide`). */
export const DEFAULT_HIDDEN = [
  '~/.ssh',
  '~/.aws',
  '~/.config/gcloud',
  '~/.gnupg',
  '~/.kube',
  '~/.docker',
  '~/.netrc',
  '~/.git-credentials',
  '/run/docker.sock',
  '/var/run/docker.sock',
];

/** What stays read-only inside the writable workspace: what xagent, git and MCP clients would later run or obey. */
export const PROTECTED_IN_WORKSPACE = [
  { relative: '.xagent', kind: 'dir' },
  { relative: '.mcp.json', kind: 'file' },
  { relative: '.git/hooks', kind: 'dir' },
  { relative: '.git/config', kind: 'file' },
] as const;

/** One bwrap mount, in the order they must be applied. */
export type Mount =
  | { type: 'bind'; path: string }
  | { type: 'ro-bind'; path: string }
  | { type: 'hide-dir'; path: string }
  | { type: 'hide-file'; path: string };

/** A protected path that does not exist yet: it is created empty for the call so a read-only mount can cover it. */
export interface Placeholder {
  path: string;
  kind: 'dir' | 'file';
}

export interface MountPlan {
  /** Applied after `/` (read-only), `/dev`, `/proc` and the private `/tmp`. */
  mounts: Mount[];
  placeholders: Placeholder[];
}

/** `~/x` against home; absolute paths as they are. */
export function expandHome(entry: string, home: string): string {
  return entry.startsWith('~/') ? path.join(home, entry.slice(2)) : entry;
}

/** The home folder: HOME from the given environment (tests use a fake one), else the OS's. */
export function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME || os.homedir();
}

const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

function existing(file: string): { real: string; dir: boolean } | undefined {
  try {
    lstatSync(file);
    const real = realpathSync(file);
    return { real, dir: statSync(real).isDirectory() };
  } catch {
    return undefined; // missing, or a dangling link: nothing to hide
  }
}

/**
 * Reads the file system (now, per call: paths come and go) and says what to mount over the
 * read-only root for one sandboxed process. Order matters to bwrap: a hidden folder that holds
 * the workspace is covered before the workspace is bound back; everything else after it.
 * @example planMounts({ workspace: '/ws', hidden: ['/home/me/.ssh'] })
 * // { mounts: [{ type: 'bind', path: '/ws' }, { type: 'hide-dir', path: '/home/me/.ssh' }, { type: 'ro-bind', path: '/ws/.xagent' }, ...], placeholders: [...] }
 */
export function planMounts({ workspace, hidden }: { workspace: string; hidden: readonly string[] }): MountPlan {
  const before: Mount[] = [];
  const after: Mount[] = [];
  for (const entry of new Set(hidden)) {
    const found = existing(entry);
    // The private /tmp already hides whatever is under the real one.
    if (!found || (inside(found.real, '/tmp') && !inside(found.real, workspace))) continue;
    const mount: Mount = { type: found.dir ? 'hide-dir' : 'hide-file', path: found.real };
    (inside(workspace, found.real) ? before : after).push(mount);
  }

  const protectedMounts: Mount[] = [];
  const placeholders: Placeholder[] = [];
  const rebound = new Set<string>();
  const gitDir = existing(path.join(workspace, '.git'));
  for (const { relative, kind } of PROTECTED_IN_WORKSPACE) {
    const target = path.join(workspace, relative);
    if (relative.startsWith('.git/')) {
      // A .git file (worktree, submodule) keeps hooks and config elsewhere; with no .git at all,
      // hooks get a placeholder so a later `git init` outside cannot pick up planted ones.
      if (gitDir && !gitDir.dir) continue;
      if (!gitDir && relative !== '.git/hooks') continue;
    }
    const found = existing(target);
    if (found && !inside(found.real, workspace)) continue; // a link to outside: read-only already
    const real = found?.real ?? target;
    // Hidden already (the workspace is the home, and .xagent the xagent home): binding it again would show it.
    if (after.some((mount) => inside(real, mount.path))) continue;
    if (!found) {
      const missingParents: Placeholder[] = [];
      for (let dir = path.dirname(real); dir !== workspace && inside(dir, workspace); dir = path.dirname(dir)) {
        if (!existing(dir) && !placeholders.some((p) => p.path === dir)) missingParents.unshift({ path: dir, kind: 'dir' });
      }
      placeholders.push(...missingParents, { path: real, kind });
    }
    // Each folder between the workspace and a protected path becomes a mount point of its own, so
    // it cannot be renamed away (`mv .git x && mkdir -p .git/hooks`); it stays writable.
    for (let dir = path.dirname(real); dir !== workspace && inside(dir, workspace); dir = path.dirname(dir)) {
      if (!rebound.has(dir)) protectedMounts.unshift({ type: 'bind', path: dir });
      rebound.add(dir);
    }
    protectedMounts.push({ type: 'ro-bind', path: real });
  }
  return { mounts: [...before, { type: 'bind', path: workspace }, ...after, ...protectedMounts], placeholders };
}
