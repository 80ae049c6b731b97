import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findNestedProtected } from './nested-protected.js';
import { XagentError } from '../errors/xagent-error.js';

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
  // Registry and CLI tokens, Claude Code's own login, keyrings and password stores, browser profiles (cookies).
  '~/.npmrc',
  '~/.yarnrc.yml',
  '~/.pypirc',
  '~/.cargo/credentials',
  '~/.cargo/credentials.toml',
  '~/.gem/credentials',
  '~/.config/gh',
  '~/.config/hub',
  '~/.config/op',
  '~/.azure',
  '~/.terraform.d',
  '~/.claude/.credentials.json',
  '~/.claude.json',
  '~/.local/share/keyrings',
  '~/.password-store',
  '~/.mozilla',
  '~/.config/google-chrome',
  '~/.config/chromium',
  '/run/docker.sock',
  '/var/run/docker.sock',
  // Shell and REPL histories: commands typed with tokens in them (`export TOKEN=…`, `curl -H …`).
  '~/.bash_history',
  '~/.zsh_history',
  '~/.history',
  '~/.sh_history',
  '~/.local/share/fish/fish_history',
  '~/.python_history',
  '~/.node_repl_history',
  '~/.psql_history',
  '~/.mysql_history',
  '~/.sqlite_history',
  '~/.rediscli_history',
  '~/.lesshst',
  '~/.viminfo',
];

/** What stays read-only inside the writable workspace: what xagent, Claude Code and MCP clients would later run or obey. */
export const PROTECTED_IN_WORKSPACE = [
  { relative: '.xagent', kind: 'dir' },
  { relative: '.claude', kind: 'dir' },
  { relative: '.mcp.json', kind: 'file', content: '{}\n' },
] as const;

/**
 * What stays read-only inside a git folder of the workspace: what names code git runs (config:
 * core.fsmonitor, filters; hooks) and where that config is read from (commondir). A placeholder
 * commondir says `.`, which is what no commondir means, so git works the same with it.
 */
export const PROTECTED_IN_GIT_DIR = [
  { relative: 'hooks', kind: 'dir' },
  { relative: 'config', kind: 'file', content: '' },
  { relative: 'commondir', kind: 'file', content: '.\n' },
] as const;

/**
 * A protected path that is a symbolic link: no mount can pin a link (a mount lands on its target),
 * so a command could delete it and put a folder of its own there. The sandbox does not run then.
 */
export class ProtectedLinkError extends XagentError {
  override readonly name = 'ProtectedLinkError';
  override readonly fault = 'tool';
  readonly code = 'SANDBOX_PROTECTED_LINK';
  constructor(readonly path: string) {
    super(
      `${path} is a symbolic link: the sandbox cannot keep it read-only (a command could replace the link), so it does not run. ` +
        'Replace the link with what it points to, or run without --sandbox.',
    );
  }
}

/** One bwrap mount, in the order they must be applied. */
export type Mount =
  | { type: 'bind'; path: string }
  | { type: 'ro-bind'; path: string }
  | { type: 'hide-dir'; path: string }
  | { type: 'hide-file'; path: string };

/**
 * A protected path that does not exist yet: it is created for the call so a read-only mount can
 * cover it. A file gets `content` that reads as if it were absent (`{}` for .mcp.json), so one a
 * crash leaves behind breaks nothing.
 */
export interface Placeholder {
  path: string;
  kind: 'dir' | 'file';
  content?: string;
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

/** What is at a protected path: a symlink is refused (see ProtectedLinkError). */
function entry(target: string, workspace: string): 'missing' | 'file' | 'dir' {
  let stats;
  try {
    stats = lstatSync(target);
  } catch {
    return 'missing';
  }
  if (stats.isSymbolicLink()) throw new ProtectedLinkError(path.relative(workspace, target) || target);
  return stats.isDirectory() ? 'dir' : 'file';
}

/** hooks, config and commondir of a git folder inside the workspace. */
function protectGitDir(
  gitDir: string,
  protect: (target: string, kind: Placeholder['kind'], content?: string) => void,
  workspace: string,
): void {
  if (entry(gitDir, workspace) !== 'dir') return;
  for (const item of PROTECTED_IN_GIT_DIR)
    protect(path.join(gitDir, item.relative), item.kind, 'content' in item ? item.content : undefined);
}

/** The folder a `.git` file names (`gitdir: <path>`), resolved; null when it names none. */
function gitDirOfFile(file: string): string | null {
  try {
    const match = /^gitdir: (.+)$/m.exec(readFileSync(file, 'utf8').slice(0, 4096));
    if (!match) return null;
    return realpathSync(path.resolve(path.dirname(file), match[1].trim()));
  } catch {
    return null;
  }
}

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
  /** Read-only from now on: a placeholder where it is missing; every folder between it and the workspace pinned. */
  const protect = (target: string, kind: Placeholder['kind'], content?: string) => {
    const found = entry(target, workspace);
    // Hidden already (the workspace is the home, and .xagent the xagent home): binding it again would show it.
    if (after.some((mount) => inside(target, mount.path))) return;
    if (found === 'missing') placeholders.push({ path: target, kind, ...(content !== undefined ? { content } : {}) });
    // Each folder between the workspace and a protected path becomes a mount point of its own, so
    // it cannot be renamed away (`mv .git x && mkdir -p .git/hooks`); it stays writable.
    for (let dir = path.dirname(target); dir !== workspace && inside(dir, workspace); dir = path.dirname(dir)) {
      if (!rebound.has(dir)) protectedMounts.unshift({ type: 'bind', path: dir });
      rebound.add(dir);
    }
    protectedMounts.push({ type: 'ro-bind', path: target });
  };
  for (const item of PROTECTED_IN_WORKSPACE)
    protect(path.join(workspace, item.relative), item.kind, 'content' in item ? item.content : undefined);

  const dotGit = path.join(workspace, '.git');
  const gitEntry = entry(dotGit, workspace);
  if (gitEntry === 'missing' || gitEntry === 'file') {
    // No repository: .git is an empty read-only folder, so none can be made (git init needs one
    // outside the sandbox). A .git file (worktree, submodule) is pinned as it is: replacing it with
    // a folder of planted config would be the same attack.
    protect(dotGit, gitEntry === 'file' ? 'file' : 'dir');
    const linked = gitEntry === 'file' ? gitDirOfFile(dotGit) : null;
    if (linked && inside(linked, workspace) && linked !== workspace) protectGitDir(linked, protect, workspace);
  } else {
    protectGitDir(dotGit, protect, workspace);
  }
  // Below the top, the ones that exist are read-only too (not pinned against a rename of their folder, see nested-protected.ts).
  for (const nested of findNestedProtected(workspace)) {
    if (!after.some((mount) => inside(nested, mount.path))) protectedMounts.push({ type: 'ro-bind', path: nested });
  }
  return { mounts: [...before, { type: 'bind', path: workspace }, ...after, ...protectedMounts], placeholders };
}
