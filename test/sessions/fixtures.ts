import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** A fresh XAGENT_HOME in a temp dir, with the named fixture sessions copied under sessions/. */
export function homeWithFixtures(...names: string[]): string {
  const home = mkdtempSync(path.join(os.tmpdir(), 'xagent-sessions-'));
  for (const name of names) cpSync(path.join(FIXTURES, name), path.join(home, 'sessions', name), { recursive: true });
  return home;
}
