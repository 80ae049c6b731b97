import path from 'node:path';
import { loadSettings } from '../settings/settings.js';
import { xagentHome } from '../sessions/layout.js';
import { resolveWorkspace } from '../run/workspace-dir.js';
import { UsageError } from '../errors/xagent-error.js';
import { exitCodeForError } from './exit-codes.js';

/** Where a subcommand writes: its answer on stdout, what went wrong on stderr. */
export interface CommandStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Where a subcommand like `mcp list` or `sandbox check` works, and the settings found there. */
export interface SubcommandPlace {
  workspace: string;
  home: string;
  settings: ReturnType<typeof loadSettings>;
}

/**
 * Resolves `--cwd`, XAGENT_HOME and the settings, then runs `use` on them. A bad folder, a bad
 * settings file or a sandbox that cannot be set up is the user's to fix: said on stderr, exit 2.
 * Anything else is thrown.
 * @example const setup = subcommandSetup(options, stderr, env, ({ settings }) => resolveMcpServers(settings.mcpServers, env));
 */
export function subcommandSetup<T>(
  options: { cwd?: string },
  stderr: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv,
  use: (place: SubcommandPlace) => T,
): T | { exitCode: number } {
  try {
    const workspace = resolveWorkspace(options.cwd);
    const home = path.resolve(xagentHome(env));
    return use({ workspace, home, settings: loadSettings({ workspace, home }) });
  } catch (error) {
    if (error instanceof UsageError) {
      stderr.write(`xagent: ${error.message}\n`);
      return { exitCode: exitCodeForError(error) };
    }
    throw error;
  }
}
