import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { inspectorChart } from '../../src/inspector/chart.js';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';
import { runTask } from '../support/engine-harness.js';
import { everyWaitOptions, everyWaitScript } from '../support/every-wait-run.js';

/**
 * Every wait of a run (a PreToolUse hook, the person's answer, a summary, the Stop hooks) is a
 * state the page lights, with its parent box, live and in a replay of the recorded session.
 */
const WAITS = [
  ['ask_permission.pre_tool_hooks', 'ask_permission'],
  ['ask_permission.asking_user', 'ask_permission'],
  ['build_context.compacting', 'build_context'],
  ['call_model.stop_hooks', 'call_model'],
] as const;

/** Starts recording every state the page lights and whether its parent box was lit with it. */
async function recordLit(page: Page): Promise<void> {
  await page.evaluate(() => {
    const svg = document.querySelector('#chart svg')!;
    const seen: string[] = [];
    (window as unknown as { lit: string[] }).lit = seen;
    const note = () => {
      const current = svg.getAttribute('data-current') ?? '';
      const parent = current.includes('.') ? current.slice(0, current.indexOf('.')) : '';
      const parentLit = parent ? svg.querySelector(`[data-state="${parent}"]`)?.getAttribute('class')?.includes('current-parent') : false;
      seen.push(`${current}${parentLit ? ` in lit ${parent}` : ''}`);
    };
    new MutationObserver(note).observe(svg, { attributes: true, attributeFilter: ['data-current', 'class'], subtree: true });
  });
}

const lit = (page: Page) => page.evaluate(() => (window as unknown as { lit: string[] }).lit);

function expectEveryWait(seen: readonly string[]): void {
  for (const [wait, parent] of WAITS) expect(seen, `${wait} in ${seen.join(' > ')}`).toContain(`${wait} in lit ${parent}`);
}

describe.skipIf(!browserTestsRun)('every wait lit in the inspector', () => {
  let browser: Browser;
  const servers: InspectorServer[] = [];
  let sessionDir = '';

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
  });

  it('lights each wait and its box while the run goes', async () => {
    const history = createHistory();
    const server = await startInspectorServer({ history, chart: inspectorChart });
    servers.push(server);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url);
    await page.locator('#chart[data-ready="true"]').waitFor();
    await recordLit(page);
    const observe = liveFeed(history, { sessionId: 'every-wait', limits: {} });
    // Each wait takes a moment, so the page (which draws once a frame) shows it.
    const run = await runTask(everyWaitScript(600), { ...everyWaitOptions(600), observe });
    expect(run.result.reason).toBe('final_answer');
    sessionDir = run.sessionDir;
    await expect.poll(() => page.locator('#mode').textContent(), { timeout: 10_000 }).toBe('finished');
    expectEveryWait(await lit(page));
    // The trace has a state line for each wait too.
    for (const [wait] of WAITS) expect(run.states).toContain(wait);
  }, 60_000);

  it('lights each wait and its box again when the recorded session is replayed step by step', async () => {
    const history = loadSessionHistory(path.join(sessionDir, 'trace.jsonl'));
    const server = await startInspectorServer({ history, chart: inspectorChart });
    servers.push(server);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url);
    await page.locator('#chart[data-ready="true"]').waitFor();
    await recordLit(page);
    const steps = Number(await page.locator('#scrubber').getAttribute('max'));
    expect(steps).toBeGreaterThan(10);
    for (let step = 0; step <= steps; step++) {
      await page.locator('#scrubber').fill(String(step));
      // The page draws once a frame: let it draw this step before the next.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    expectEveryWait(await lit(page));
  }, 60_000);
});
