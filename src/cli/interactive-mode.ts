import { INTERACTIVE_LIMITS } from '../engine/limits.js';
import { startInteractive } from './interactive.js';
import { createApiModel } from '../run/model-factory.js';
import { prepareRun } from '../run/prepare-run.js';
import { settleTrust } from '../run/trust-gate.js';
import type { RunFlags } from '../run/add-run-flags.js';
import { resolveRunConfig } from '../run/run-flags.js';
import { onStopSignal } from '../run/signals.js';

/** Interactive mode on a terminal; resolves with the exit code when the person leaves. */
export async function runInteractiveMode(args: string[], raw: RunFlags): Promise<number> {
  // Untrusted project files are asked about before the terminal UI takes the keyboard.
  // No surprise budgets: a limit applies only when a flag gives it (or /config sets it).
  const config = await settleTrust(resolveRunConfig(raw, args, process.env, createApiModel, INTERACTIVE_LIMITS), {
    terminal: true,
    input: process.stdin,
    output: process.stderr,
  });
  const run = await prepareRun(config, { stderr: process.stderr });
  // A terminal that cannot move the cursor gets the plain line prompt; every other one the full UI.
  // Loaded here, not at the top: `xagent -p` must not pay for React and Ink.
  const repl =
    process.env.TERM === 'dumb'
      ? startInteractive(run, { input: process.stdin, output: process.stdout, errorOutput: process.stderr, terminal: true })
      : (await import('../tui/run-tui.js')).startTui(run, {
          // /clear and /resume: another session of this workspace, without a second inspector or a second set of MCP servers.
          openRun: (resume, stderr) =>
            prepareRun(
              { ...config, inspectPort: null, session: { ...(resume ? { resume } : {}), continue: false } },
              { stderr, sharedMcp: run.mcp },
            ),
        });
  // A signal from outside (kill -INT, kill -TERM) does what Ctrl-C at the keyboard does.
  const uninstall = onStopSignal(() => repl.interrupt());
  try {
    return await repl.done;
  } finally {
    uninstall();
    await run.close();
  }
}
