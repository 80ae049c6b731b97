import { startInteractive } from './interactive.js';
import { createApiModel } from './model-factory.js';
import { prepareRun } from './prepare-run.js';
import { resolveRunConfig, type RawOptions } from './run-config.js';
import { onStopSignal } from './signals.js';

/** Interactive mode on a terminal; resolves with the exit code when the person leaves. */
export async function runInteractiveMode(args: string[], raw: RawOptions): Promise<number> {
  const config = resolveRunConfig(raw, args, process.env, createApiModel);
  const run = await prepareRun(config, { stderr: process.stderr });
  const repl = startInteractive(run, { input: process.stdin, output: process.stdout, errorOutput: process.stderr, terminal: true });
  // A signal from outside (kill -INT, kill -TERM) does what Ctrl-C at the keyboard does.
  const uninstall = onStopSignal(() => repl.interrupt());
  try {
    return await repl.done;
  } finally {
    uninstall();
    await run.close();
  }
}
