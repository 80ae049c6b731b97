/**
 * Imported first by the CLI entry: from the moment the code runs, Ctrl-C or SIGTERM during
 * start-up (loading modules, reading settings, waiting for a prompt on stdin) exits 130 instead
 * of killing the process by the signal. Once a task installs its own handlers, this one stands
 * aside (it acts only when it is the sole listener).
 */
// Once per process: `-p` runs load a second copy of this module inside the compiled core
// (compiled-core.ts), and two listeners would each see the other and never exit.
import { printExitResult } from './output/exit-result.js';

const installed = Symbol.for('xagent.early-signals');
const registry = globalThis as { [installed]?: true };
if (!registry[installed]) {
  registry[installed] = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (process.listenerCount(signal) !== 1) return;
      printExitResult(process.argv, { reason: 'user_abort', message: `interrupted (${signal}) before the task started`, exitCode: 130 });
      process.exit(130);
    });
  }
}
