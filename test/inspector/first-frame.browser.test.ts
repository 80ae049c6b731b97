import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartFingerprint } from '../../machines/chart-fingerprint.js';
import { ENGINE_STATES } from '../../machines/query-engine.js';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';
import { shippedChart } from '../../src/inspector/shipped-chart.js';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { runTask } from '../support/engine-harness.js';

/**
 * The inspector's first frame: the chart's layout ships with the build, keyed by the chart's
 * fingerprint, so the page draws the states as soon as it loads, with no layout computed on the
 * first request (which took 5 to 14 s). Each page is opened on a server in a fresh state, at the
 * start of a live run and on a replay of a recorded session.
 */

/**
 * Milliseconds from the page's load event (its own clock, so a busy machine's slow navigation is not
 * counted) until the chart holds the eight top-level state names; negative when drawn before it.
 */
async function firstChartFrame(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  const drawn = await page.waitForFunction(
    (names) => names.every((name) => document.querySelector(`#chart svg [data-state="${name}"]`)) && performance.now(),
    [...ENGINE_STATES],
    { timeout: 10_000, polling: 'raf' },
  );
  const at = (await drawn.jsonValue()) as number;
  await page.waitForLoadState('load');
  const loaded = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd);
  return at - loaded;
}

/** The server's chart: only the layout shipped with the build; a layout computed on request fails the test. */
function shippedOnly(): unknown {
  const shipped = shippedChart();
  if (!shipped) throw new Error('no shipped layout for this chart: run npm run diagrams');
  return shipped;
}

describe.runIf(browserTestsRun)('the inspector draws the chart in its first frame', () => {
  let browser: Browser;
  const servers: InspectorServer[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
  });

  it('ships the layout of this chart, keyed by its fingerprint', () => {
    expect(shippedChart(chartFingerprint())).not.toBeNull();
    expect(shippedChart('another-chart')).toBeNull();
  });

  it('at the start of a live run, the SVG holds the state names within 1 s of the page load', async () => {
    const history = createHistory();
    const server = await startInspectorServer({ history, chart: shippedOnly });
    servers.push(server);
    const run = runTask([{ delay_ms: 300, text: 'done' }], {
      observe: liveFeed(history, { sessionId: 'first-frame', limits: {} }),
      sessionId: 'first-frame',
    });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const ms = await firstChartFrame(page, server.url);
    console.log(`first chart frame at the start of a run: ${Math.round(ms)} ms after the load event`);
    expect(ms).toBeLessThan(1000);
    await run;
  });

  it('in a replay of a recorded session, the SVG holds the state names within 1 s of the page load', async () => {
    const recorded = await runTask([{ text: 'recorded' }], { sessionId: 'first-frame-replay' });
    const server = await startInspectorServer({
      history: loadSessionHistory(path.join(recorded.sessionDir, 'trace.jsonl')),
      chart: shippedOnly,
    });
    servers.push(server);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const ms = await firstChartFrame(page, server.url);
    console.log(`first chart frame in a replay: ${Math.round(ms)} ms after the load event`);
    expect(ms).toBeLessThan(1000);
    await expect.poll(() => page.locator('#chart svg').first().getAttribute('data-current')).toBe('done');
  });
});
