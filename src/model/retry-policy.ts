/**
 * When and how long to wait before retrying a failed model request. Pure, apart from the
 * injectable random source, so the delays are unit-testable.
 */

export interface RetryTiming {
  /** First default delay; doubles per retry. */
  baseDelayMs: number;
  /** Cap on the default (exponential) delay. */
  maxDelayMs: number;
  /** A server's retry-after longer than this is ignored in favour of the default delay, as the SDK does. */
  maxRetryAfterMs: number;
  /** [0, 1); Math.random unless a test pins it. */
  random?: () => number;
}

export const DEFAULT_RETRY_TIMING: RetryTiming = { baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The delay a server asked for in `retry-after-ms` or `retry-after` (seconds or an HTTP date).
 * @example parseRetryAfterMs(new Headers({ 'retry-after': '2' })) // => 2000
 */
export function parseRetryAfterMs(headers: HeaderSource | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (Number.isFinite(Number(value))) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date - now;
}

/**
 * How long to wait before retry number `attempt` (1 for the first retry): the server's
 * retry-after if it is sane, else exponential backoff with up to 25% jitter.
 * @example retryDelayMs({ attempt: 1, headers, timing: DEFAULT_RETRY_TIMING })
 */
export function retryDelayMs({ attempt, headers, timing }: { attempt: number; headers?: HeaderSource; timing: RetryTiming }): number {
  const asked = parseRetryAfterMs(headers);
  if (asked !== undefined && asked >= 0 && asked <= timing.maxRetryAfterMs) return Math.round(asked);
  const exponential = Math.min(timing.baseDelayMs * 2 ** (attempt - 1), timing.maxDelayMs);
  const jitter = 1 - (timing.random ?? Math.random)() * 0.25;
  return Math.round(exponential * jitter);
}

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it aborts.
 * @example await sleep(500, signal)
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What an aborted request rejects with: the signal's own reason (an AbortError by default). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The model request was aborted', 'AbortError');
}
