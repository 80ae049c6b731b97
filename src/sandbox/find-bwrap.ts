import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors/xagent-error.js';

/** What the user is told when the sandbox cannot be used: how to get it, or how to run without it. */
export const INSTALL_HINT =
  'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap), or run without --sandbox.';

/** The sandbox was asked for but cannot run here; the CLI exits 2 with this message, never runs unsandboxed. */
export class SandboxUnavailableError extends UsageError {
  override readonly name = 'SandboxUnavailableError';
  override readonly fault = 'config';
  readonly code = 'SANDBOX_UNAVAILABLE';
}

/**
 * The first executable `bwrap` on the PATH, as an absolute path.
 * @example findBwrap(process.env) // '/usr/bin/bwrap'
 * @throws SandboxUnavailableError when there is none, with how to install it
 */
export function findBwrap(env: NodeJS.ProcessEnv): string {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.resolve(dir, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  throw new SandboxUnavailableError(`the sandbox needs bwrap (bubblewrap), and there is no bwrap on the PATH. ${INSTALL_HINT}`);
}
