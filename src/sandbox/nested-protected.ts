import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';

/**
 * Protected paths below the workspace's top (`vendor/lib/.git/config`, `sub/.xagent`): a bounded
 * look, per call, for the ones that exist, so the sandbox can mount them read-only too. Bounded:
 * MAX_DEPTH folders down, MAX_DIRS folders in all, `node_modules` and other dependency folders not
 * entered, so a big tree costs a few milliseconds, not seconds. Links are not followed.
 */
const MAX_DEPTH = 3;
const MAX_DIRS = 3000;
const NOT_ENTERED = new Set(['node_modules', '.git', '.hg', '.svn', 'target', 'dist', 'build', '.venv', 'venv', '__pycache__']);
const PROTECTED_NAMES = new Set(['.xagent', '.claude', '.mcp.json']);
const IN_GIT_DIR = ['hooks', 'config', 'commondir'];

/**
 * Existing nested protected paths: real files and folders only (a link is left alone here: the
 * top-level rules refuse links, below the top it is only read-only as far as it goes).
 * @example findNestedProtected('/ws') // ['/ws/vendor/lib/.git/config', '/ws/vendor/lib/.git/hooks', '/ws/pkg/.mcp.json']
 */
export function findNestedProtected(workspace: string): string[] {
  const found: string[] = [];
  let dirs = 0;
  const visit = (dir: string, depth: number) => {
    if (dirs++ >= MAX_DIRS) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (depth === 0 && PROTECTED_NAMES.has(entry.name)) continue; // the top level is mount-plan.ts's own
      if (depth > 0 && entry.name === '.git' && (entry.isDirectory() || entry.isFile())) {
        found.push(full);
        if (entry.isDirectory()) for (const inside of IN_GIT_DIR) if (isReal(path.join(full, inside))) found.push(path.join(full, inside));
        continue;
      }
      if (depth > 0 && PROTECTED_NAMES.has(entry.name) && (entry.isDirectory() || entry.isFile())) {
        found.push(full);
        continue;
      }
      if (entry.isDirectory() && depth < MAX_DEPTH && !NOT_ENTERED.has(entry.name)) visit(full, depth + 1);
    }
  };
  visit(workspace, 0);
  // A nested .git folder itself stays writable (git works in it); its files above are what count.
  return found.filter((file) => !(path.basename(file) === '.git' && isDir(file)));
}

function isReal(file: string): boolean {
  try {
    return !lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

function isDir(file: string): boolean {
  try {
    return lstatSync(file).isDirectory();
  } catch {
    return false;
  }
}
