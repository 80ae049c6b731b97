import { killTrackedGroups } from '../system/process-group.js';

/**
 * Ends the CLI with `code` as soon as its output is written, without waiting for the event loop
 * to drain: a tool still tearing down (a command ignoring SIGTERM, a read blocked on a pipe) must
 * not keep the process alive after the task has stopped. Commands the bash tool started and that
 * are still alive are killed first, so nothing is left behind.
 * @example await exitWhenFlushed(await main(process.argv));
 */
export async function exitWhenFlushed(code: number): Promise<never> {
  killTrackedGroups();
  await Promise.race([
    Promise.all([flushed(process.stdout), flushed(process.stderr)]),
    new Promise((resolve) => setTimeout(resolve, 2000).unref()),
  ]);
  process.exit(code);
}

/** Resolves once nothing is left in the stream's buffer, or it failed (a reader that went away). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.errored || !stream.writable || stream.writableLength === 0) return resolve();
    stream.once('error', () => resolve());
    stream.once('close', () => resolve());
    stream.write('', () => resolve());
  });
}
