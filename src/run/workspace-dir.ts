import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors/xagent-error.js';

/**
 * The workspace a command works in: `dir` (else the current folder), checked to be a folder and
 * resolved to its real path, for runs and for the subcommands that take `--cwd`.
 * @example resolveWorkspace(options.cwd) // '/home/me/project'
 * @throws UsageError naming the flag (`what`) and the path
 */
export function resolveWorkspace(dir: string | undefined, what = '--cwd'): string {
  const target = path.resolve(dir ?? process.cwd());
  try {
    if (!statSync(target).isDirectory()) throw new UsageError(`${what} ${target} is not a directory`);
    return realpathSync(target);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${what} ${target} does not exist`);
  }
}
