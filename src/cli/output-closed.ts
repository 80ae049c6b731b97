/**
 * `xagent -p ... | head -1`: when the reader of stdout (or stderr) goes away, writes fail with
 * EPIPE, asynchronously, possibly after the task ended. The streams keep one error handler for
 * the life of the process, so that never crashes it; a running task is stopped cleanly instead.
 */
const listeners = new Set<() => void>();
let watching = false;

export function watchOutputStreams(streams: NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  if (watching) return;
  watching = true;
  for (const stream of streams) {
    stream.on('error', () => {
      for (const listener of listeners) listener();
    });
  }
}

/** Calls `listener` when an output stream fails; returns the unsubscribe. */
export function onOutputClosed(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
