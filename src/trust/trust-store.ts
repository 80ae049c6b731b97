import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';

/**
 * What the person trusted, per workspace and per item (project-items.ts keys), in the user's own
 * folder (`$XAGENT_HOME/trusted-projects.json`), never in the workspace a repository controls.
 * An item that changes gets a new key, so a changed command is asked about again.
 *
 * ```json
 * { "v": 1, "workspaces": { "/home/me/project": { "items": ["3f2a..."], "updated": "2026-12-01T15:00:00.000Z" } } }
 * ```
 */
interface TrustFile {
  v: 1;
  workspaces: Record<string, { items: string[]; updated: string }>;
}

export function trustFilePath(home: string): string {
  return path.join(home, 'trusted-projects.json');
}

/** The workspace as the store names it: its real path, so two spellings of one folder share a record. */
function workspaceKey(workspace: string): string {
  try {
    return realpathSync(workspace);
  } catch {
    return path.resolve(workspace);
  }
}

function read(home: string): TrustFile {
  try {
    const data = JSON.parse(readFileSync(trustFilePath(home), 'utf8')) as Partial<TrustFile>;
    if (data.v === 1 && typeof data.workspaces === 'object' && data.workspaces !== null) return data as TrustFile;
  } catch {
    // none yet, or unreadable: nothing is trusted, and the next answer writes a good one
  }
  return { v: 1, workspaces: {} };
}

/**
 * The item keys trusted in this workspace.
 * @example trustedKeys('/home/me/.xagent', '/home/me/project').has(item.key)
 */
export function trustedKeys(home: string, workspace: string): Set<string> {
  const record = read(home).workspaces[workspaceKey(workspace)];
  return new Set(Array.isArray(record?.items) ? record.items.filter((k) => typeof k === 'string') : []);
}

/**
 * Adds item keys to the workspace's record (written atomically).
 * @throws the write's error (a read-only home): the caller says so and runs with them this once
 */
export function rememberTrust(home: string, workspace: string, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const data = read(home);
  const key = workspaceKey(workspace);
  const items = new Set(data.workspaces[key]?.items ?? []);
  for (const k of keys) items.add(k);
  data.workspaces[key] = { items: [...items], updated: new Date().toISOString() };
  mkdirSync(home, { recursive: true });
  writeFileAtomicSync(trustFilePath(home), `${JSON.stringify(data, null, 2)}\n`);
}
