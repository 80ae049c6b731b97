/**
 * Ctrl-C / SIGTERM: the first one aborts the running task (the engine stops with user_abort and
 * keeps the transcript valid); a second one exits at once.
 */
export function installAbortSignals(options: {
  onAbort: () => void;
  exit?: (code: number) => void;
  stderr?: NodeJS.WritableStream;
}): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let count = 0;
  const handler = () => {
    count++;
    if (count === 1) {
      options.stderr?.write('\nStopping... (press Ctrl-C again to quit at once)\n');
      options.onAbort();
    } else {
      exit(130);
    }
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
