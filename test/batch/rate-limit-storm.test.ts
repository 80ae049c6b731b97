import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBatch } from '../../src/lib/index.js';
import { tempDir } from '../support/engine-harness.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { promptOf, twoRounds } from './batch-fixtures.js';

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('a rate-limit storm during a batch', () => {
  it('slows the whole batch down, and every task still ends with final_answer', { timeout: 60_000 }, async () => {
    const stormMs = 1_500;
    const retryAfterMs = 200;
    let stormStart = 0;
    const limitedAt: number[] = [];
    const answer = twoRounds(5);
    // Every request in the first 1.5 s is answered 429 "retry after 200 ms": longer than a task's own two retries last.
    const respond = (body: Record<string, unknown>): FakeResponse => {
      const now = Date.now();
      stormStart ||= now;
      if (now - stormStart < stormMs) {
        limitedAt.push(now - stormStart);
        return { error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' }, retryAfterMs };
      }
      return answer(body);
    };
    fake = await startFakeAnthropic([], { respond });
    const dir = tempDir();
    const tasks = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, prompt: promptOf(i + 1) }));
    const results = [];
    for await (const result of runBatch(tasks, {
      cwd: dir,
      concurrency: 20,
      readSettings: false,
      stderr: null,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, XAGENT_HOME: path.join(dir, 'home'), PATH: process.env.PATH },
    })) {
      results.push(result);
    }
    expect(results).toHaveLength(40);
    expect(results.map((r) => r.reason)).toEqual(Array(40).fill('final_answer'));
    // The 429s come in bursts, one per backoff of the whole batch (every task waiting 200 ms at
    // once), each smaller than the one before (the requests in flight halved), where tasks retrying
    // on their own would each come back on their own clock, twenty at a time.
    const bursts: Array<{ start: number; end: number; size: number }> = [];
    for (const at of limitedAt) {
      const last = bursts.at(-1);
      if (last && at - last.end <= 100) {
        last.end = at;
        last.size++;
      } else bursts.push({ start: at, end: at, size: 1 });
    }
    expect(bursts.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < bursts.length; i++) expect(bursts[i]!.start - bursts[i - 1]!.start).toBeGreaterThanOrEqual(retryAfterMs - 20);
    expect(bursts.slice(2).every((burst) => burst.size <= 6)).toBe(true);
    expect(bursts.at(-1)!.size).toBeLessThanOrEqual(3);
    expect(limitedAt.length).toBeLessThan(20 * 3);
    expect(fake.rejected).toEqual([]);
  });
});
