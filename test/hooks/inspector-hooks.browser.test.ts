import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import type { HooksConfig } from '../../src/hooks/index.js';
import { inspectorChart } from '../../src/inspector/chart.js';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { startInspectorServer } from '../../src/inspector/server.js';
import { runTask } from '../support/engine-harness.js';

const hooks: HooksConfig = {
  PreToolUse: [
    { matcher: 'echo', hooks: [{ type: 'function', name: 'guard', callback: () => ({ decision: 'deny', reason: 'not echo' }) }] },
  ],
};
const script = [{ content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'echo', input: { text: 'hi' } }] }, { text: 'ok' }];

describe.skipIf(!browserTestsRun)('hook runs in the inspector page', () => {
  let browser: Browser | undefined;
  afterAll(async () => browser?.close());

  it('lists each hook run in the run log, live and when a recorded session is replayed', async () => {
    browser = await launchChromium();
    const live = createHistory();
    const run = await runTask(script, { hooks, observe: liveFeed(live, { sessionId: 'hooks', limits: {} }) });
    const replayed = loadSessionHistory(`${run.sessionDir}/trace.jsonl`);
    for (const history of [live, replayed]) {
      const server = await startInspectorServer({ history, chart: inspectorChart });
      try {
        const page = await browser.newPage();
        await page.goto(server.url);
        const entry = page.locator('#log [data-kind="hook"]');
        await expect.poll(() => entry.count(), { timeout: 15_000 }).toBe(1);
        await expect(entry.textContent()).resolves.toContain('PreToolUse function guard: denied');
        await expect(entry.textContent()).resolves.toContain('not echo');
        await page.close();
      } finally {
        await server.close();
      }
    }
  }, 60_000);
});
