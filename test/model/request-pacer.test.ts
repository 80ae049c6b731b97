import { describe, expect, it } from 'vitest';
import { createRequestPacer } from '../../src/model/request-pacer.js';

const timing = { baseDelayMs: 100, maxDelayMs: 800, maxRetryAfterMs: 60_000, random: () => 0 };
const headers = (retryAfterMs?: number) => ({
  get: (name: string) => (name === 'retry-after-ms' && retryAfterMs !== undefined ? String(retryAfterMs) : null),
});

describe('the request pacer a batch shares', () => {
  it('lets maxInFlight requests go at once and the next one when a slot is released', async () => {
    const pacer = createRequestPacer({ maxInFlight: 2, timing });
    const signal = new AbortController().signal;
    const a = await pacer.acquire(signal);
    await pacer.acquire(signal);
    let third = false;
    const waiting = pacer.acquire(signal).then(() => (third = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBe(false);
    a();
    await waiting;
    expect(third).toBe(true);
  });

  it('on a 429 holds every request back for the retry-after and halves the requests in flight; a success adds one back', async () => {
    let now = 1_000;
    const pacer = createRequestPacer({ maxInFlight: 4, timing, now: () => now });
    const signal = new AbortController().signal;
    expect(pacer.limited(headers(300))).toBe(300);
    // A second failure of the same storm (a request already in flight) waits for the same end.
    now += 100;
    expect(pacer.limited(headers(300))).toBe(200);
    let went = 0;
    const go = () => pacer.acquire(signal).then(() => went++);
    const four = [go(), go(), go(), go()];
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(went).toBe(0);
    now += 200;
    await new Promise((resolve) => setTimeout(resolve, 250));
    // Half of four may go after the storm.
    expect(went).toBe(2);
    pacer.succeeded();
    await new Promise((resolve) => setImmediate(resolve));
    expect(went).toBe(3);
    void four;
  });

  it('spends one budget for the whole batch: storms in a row with no success between end in a failure', () => {
    let now = 0;
    const pacer = createRequestPacer({ maxInFlight: 8, strikes: 3, timing, now: () => now });
    for (let storm = 1; storm <= 3; storm++) {
      const wait = pacer.limited(undefined);
      expect(wait).toBe(Math.min(100 * 2 ** (storm - 1), 800));
      now += wait ?? 0;
    }
    expect(pacer.limited(undefined)).toBeNull();
    pacer.succeeded();
    expect(pacer.limited(undefined)).toBe(100);
  });

  it('a waiting request whose task stops leaves the queue with the stop reason', async () => {
    const pacer = createRequestPacer({ maxInFlight: 1, timing });
    await pacer.acquire(new AbortController().signal);
    const stop = new AbortController();
    const waiting = pacer.acquire(stop.signal);
    stop.abort(new Error('task stopped'));
    await expect(waiting).rejects.toThrow('task stopped');
  });
});
