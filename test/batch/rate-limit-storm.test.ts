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
    // The batch backs off together and halves what it sends after each storm: by the storm's last
    // half second only a few requests a backoff still go out, where twenty tasks retrying on their
    // own would each have come back (and, past their own two retries, failed).
    expect(limitedAt.filter((at) => at >= stormMs - 500).length).toBeLessThanOrEqual(8);
    expect(limitedAt.length).toBeLessThan(20 * 3);
    expect(fake.rejected).toEqual([]);
  });
});
