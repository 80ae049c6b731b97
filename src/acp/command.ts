import type { Command } from 'commander';
import { addRunFlags, type RunFlags } from '../run/add-run-flags.js';

/**
 * `xagent acp [run flags]`: xagent as an Agent Client Protocol agent on stdin/stdout. The flags
 * are the task flags of `-p` (limits, model, permission mode and rules, --inspect, --trust, ...),
 * applied to every session the editor opens. The protocol code (and its SDK) loads only here.
 */
export function registerAcpCommand(program: Command, setExit: (code: number) => void): void {
  addRunFlags(
    program.command('acp').description('run as an Agent Client Protocol agent on stdin/stdout (for Zed and other ACP editors)'),
    'acp',
  ).action(async (_local: RunFlags, command: Command) => {
    // The root command knows most of these flags too and takes them wherever they stand: merge both.
    const raw = command.optsWithGlobals<RunFlags>();
    const { serveAcp } = await import('./serve.js');
    setExit(await serveAcp(raw));
  });
}
