/**
 * One pace for many tasks' model requests (a batch): when the API says "too many" (429) or
 * "overloaded" (529), every task slows down together, instead of each retrying on its own and
 * the crowd hitting the API again at once. The pacer holds the batch back for the backoff (the
 * server's retry-after, else exponential), halves how many requests may be in flight and adds
 * one back per success (AIMD, as TCP does); a rate-limited request retries on the batch's shared
 * budget (strikes: storms in a row with no success between), not on its own count.
 */
import { DEFAULT_RETRY_TIMING, retryDelayMs, type RetryTiming } from './retry-policy.js';

export interface RequestPacer {
  /** Waits until a request may go (the batch is not backing off, a slot is free); resolves with its release. Rejects when `signal` aborts. */
  acquire(signal: AbortSignal): Promise<() => void>;
  /**
   * A request was rate-limited or the API was overloaded: the batch backs off. Returns how long the
   * request will wait before its next try, or null when the shared budget is spent (it fails).
   */
  limited(retryAfter: { get(name: string): string | null } | undefined): number | null;
  /** A request got its answer: the storm is over, one more request may be in flight. */
  succeeded(): void;
}

export interface PacerOptions {
  /** Requests in flight at most (the batch's concurrency). */
  maxInFlight: number;
  /** Storms in a row (each after the previous backoff ended, with no success between) before requests fail; default 10. */
  strikes?: number;
  timing?: RetryTiming;
  now?: () => number;
}

/**
 * @example const pacer = createRequestPacer({ maxInFlight: 50 }); createAnthropicClient({ ..., pacer });
 */
export function createRequestPacer(options: PacerOptions): RequestPacer {
  const now = options.now ?? Date.now;
  const timing = options.timing ?? DEFAULT_RETRY_TIMING;
  const maxStrikes = options.strikes ?? 10;
  const max = Math.max(1, options.maxInFlight);
  let limit = max;
  let inFlight = 0;
  let pausedUntil = 0;
  let strikes = 0;
  let timer: NodeJS.Timeout | undefined;
  const waiting: Array<() => void> = [];

  const pump = (): void => {
    const wait = pausedUntil - now();
    if (wait > 0) {
      if (timer === undefined && waiting.length > 0) {
        timer = setTimeout(() => {
          timer = undefined;
          pump();
        }, wait);
      }
      return;
    }
    while (waiting.length > 0 && inFlight < limit) {
      inFlight++;
      waiting.shift()?.();
    }
  };
  const release = (): void => {
    inFlight--;
    pump();
  };
  return {
    acquire(signal) {
      return new Promise((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const go = () => {
          signal.removeEventListener('abort', onAbort);
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            release();
          });
        };
        const onAbort = () => {
          const at = waiting.indexOf(go);
          if (at >= 0) waiting.splice(at, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.push(go);
        pump();
      });
    },
    limited(headers) {
      const at = now();
      // Failures of requests that were already in flight when the storm began are one storm, not many.
      if (at >= pausedUntil) {
        strikes++;
        if (strikes > maxStrikes) return null;
        limit = Math.max(1, Math.ceil(limit / 2));
        pausedUntil = at + retryDelayMs({ attempt: strikes, headers, timing });
      }
      return Math.max(0, pausedUntil - at);
    },
    succeeded() {
      strikes = 0;
      if (limit < max) {
        limit++;
        pump();
      }
    },
  };
}
