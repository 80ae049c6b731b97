import { INTERACTIVE_LIMITS } from '../engine/limits.js';
import { startInteractive } from './interactive.js';
import { createApiModel } from '../run/model-factory.js';
import { prepareRun } from '../run/prepare-run.js';
import { settleTrust } from '../run/trust-gate.js';
import type { RunFlags } from '../run/add-run-flags.js';
import { resolveRunConfig } from '../run/run-flags.js';
import type { RunConfig } from '../run/run-config.js';
import { UsageError } from '../errors/xagent-error.js';
import { onStopSignal } from '../run/signals.js';

/** Interactive mode on a terminal; resolves with the exit code when the person leaves. */
export async function runInteractiveMode(args: string[], raw: RunFlags): Promise<number> {
  // No surprise budgets: a limit applies only when a flag gives it (or /config sets it).
  const resolved = resolveRunConfig(
    { ...raw, resume: raw.resume === true ? undefined : raw.resume },
    args,
    process.env,
    createApiModel,
    INTERACTIVE_LIMITS,
  );
  // `-r` alone: pick one of this folder's sessions first; Esc leaves before anything starts.
  const resume = raw.resume === true ? await pickResumed(resolved) : raw.resume;
  if (resume === null) return 0;
  // Untrusted project files are asked about before the terminal UI takes the keyboard.
  const config = await settleTrust(
    { ...resolved, session: { ...resolved.session, ...(resume !== undefined ? { resume } : {}) } },
    {
      terminal: true,
      input: process.stdin,
      output: process.stderr,
    },
  );
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

/** The session `-r` without an id resumes: picked in the terminal UI's picker, or null to leave. */
async function pickResumed(config: RunConfig): Promise<string | null> {
  if (process.env.TERM === 'dumb')
    throw new UsageError(
      '-r without a session id opens a picker, which TERM=dumb cannot draw: xagent -r <id> (xagent sessions lists them)',
    );
  const { pickSession, recentSessions } = await import('../tui/session-picker.js');
  const sessions = recentSessions(config.home, config.workspace);
  if (sessions.length === 0) {
    process.stderr.write(`No recorded sessions of ${config.workspace} to resume (xagent without -r starts one).\n`);
    return null;
  }
  return pickSession({ sessions, workspace: config.workspace });
}
