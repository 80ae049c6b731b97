import type { BatchProgress } from './run-batch.js';

/**
 * The batch's progress as one line: `120/200 done · 50 running · 3 failed · 41/min · eta 1m56s`.
 * The rate counts the tasks finished in this run since `startedAt`.
 * @example progressLine({ done: 10, failed: 0, running: 5, skipped: 0, total: 20 }, 60_000) // '10/20 done · 5 running · 0 failed · 10/min · eta 1m00s'
 */
export function progressLine(progress: BatchProgress, elapsedMs: number): string {
  const perMinute = elapsedMs > 0 ? (progress.done / elapsedMs) * 60_000 : 0;
  const left = progress.total - progress.done;
  const eta = progress.done > 0 && left > 0 ? ` · eta ${duration((left / perMinute) * 60_000)}` : '';
  const skipped = progress.skipped > 0 ? ` · ${progress.skipped} skipped (done before)` : '';
  return (
    `${progress.done}/${progress.total} done · ${progress.running} running · ${progress.failed} failed · ` +
    `${perMinute >= 10 ? Math.round(perMinute) : perMinute.toFixed(1)}/min${eta}${skipped}`
  );
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/**
 * Draws the progress line in place on a terminal (stderr), at most a few times a second, and
 * leaves it standing at the end; on anything but a terminal it draws nothing.
 */
export function progressDisplay(stream: NodeJS.WriteStream, now: () => number = Date.now) {
  const started = now();
  let drawnAt = 0;
  let last: BatchProgress | null = null;
  const draw = (progress: BatchProgress) => stream.write(`\r\x1b[K${progressLine(progress, now() - started)}`);
  return {
    update(progress: BatchProgress) {
      last = progress;
      if (!stream.isTTY || now() - drawnAt < 250) return;
      drawnAt = now();
      draw(progress);
    },
    end() {
      if (stream.isTTY && last) {
        draw(last);
        stream.write('\n');
      }
    },
  };
}
