import { existsSync, readFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';

/** The line that keeps the personal settings file out of git, relative to the workspace root. */
export const LOCAL_SETTINGS_IGNORE = '.xagent/settings.local.json';

/**
 * Adds `.xagent/settings.local.json` to the project's .gitignore the first time the file is written:
 * "always" answers are personal and must not be committed by accident. Only in a git checkout (a
 * `.git` at the workspace root); a .gitignore that already names the file (or `.xagent/`) is left alone.
 * Returns true when it added the line. Never throws: a read-only .gitignore only loses the convenience.
 * @example ignoreLocalSettings('/repo') // true, and /repo/.gitignore ends with .xagent/settings.local.json
 */
export function ignoreLocalSettings(workspace: string): boolean {
  if (!existsSync(path.join(workspace, '.git'))) return false;
  const file = path.join(workspace, '.gitignore');
  try {
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const lines = current.split(/\r?\n/).map((line) => line.trim());
    const covered = ['.xagent/settings.local.json', '/.xagent/settings.local.json', '.xagent/', '.xagent', '/.xagent/', '/.xagent'];
    if (lines.some((line) => covered.includes(line))) return false;
    const separator = current && !current.endsWith('\n') ? '\n' : '';
    appendFileSync(file, `${separator}# xagent: personal settings ("don't ask again" answers)\n${LOCAL_SETTINGS_IGNORE}\n`);
    return true;
  } catch {
    return false;
  }
}
