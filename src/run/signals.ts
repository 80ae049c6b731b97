/**
 * Every process signal xagent reacts to is handled here: SIGINT (Ctrl-C) and SIGTERM mean "stop",
 * and what stopping does depends on the mode that asks.
 */

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Calls `handler` on each SIGINT or SIGTERM until the returned function is called. */
export function onStopSignal(handler: () => void): () => void {
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, handler);
  };
}

/**
 * Print mode: the first signal aborts the running task (the engine stops with user_abort and keeps
 * the transcript valid); a second one exits at once.
 */
export function installAbortSignals(options: {
  onAbort: () => void;
  exit?: (code: number) => void;
  stderr?: NodeJS.WritableStream;
}): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let count = 0;
  return onStopSignal(() => {
    count++;
    if (count === 1) {
      options.stderr?.write('\nStopping... (press Ctrl-C again to quit at once)\n');
      options.onAbort();
    } else {
      exit(130);
    }
  });
}

/** Resolves on the next Ctrl-C or SIGTERM (an inspector kept serving after its task). */
export function untilStopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const uninstall = onStopSignal(() => {
      uninstall();
      resolve();
    });
  });
}
