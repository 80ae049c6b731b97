import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRun } from '../support/chromium.js';
import { ARTIFACTS, SCOUT_SLOW_MS as SLOW_MS, watchThreeScouts, type ScoutsWatch } from '../support/three-scouts.js';

/**
 * Seeing the agents (issue 36): the main agent starts three scouts at once, each runs a slow tool
 * and answers. The page shows a chip per live agent, a child's view starts from the child's own
 * prompt and holds its answer, and the timing strip gives the children's time to the task call.
 */

const chips = (page: Page) =>
  page.locator('[data-testid="agent-chip"]').evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.agent));

/** The round's time per kind, from the strip's segments. */
async function roundTime(page: Page, n: number): Promise<Record<string, number>> {
  return page
    .locator('[data-testid="timing-round"]')
    .nth(n)
    .locator('[data-testid="timing-seg"]')
    .evaluateAll((segs) => {
      const ms: Record<string, number> = {};
      for (const s of segs as HTMLElement[]) {
        const kind = s.dataset.kind === 'ttft' ? 'model' : (s.dataset.kind ?? '');
        ms[kind] = (ms[kind] ?? 0) + Number(s.dataset.ms);
      }
      return ms;
    });
}

describe.skipIf(!browserTestsRun)('the inspector shows the agents', () => {
  let watch: ScoutsWatch;
  let page: Page;

  beforeAll(async () => {
    watch = await watchThreeScouts('agents');
    page = watch.page;
  });

  afterAll(async () => {
    await watch?.close();
  });

  it('shows main and three children live in the agents strip; a child’s view starts with its prompt and holds its answer; the children’s time is the task’s', async () => {
    // Live: a chip per agent while the three scouts run their slow tool, each saying what it waits for.
    await expect.poll(() => chips(page), { timeout: 15_000 }).toEqual(['main', 'main/task-1', 'main/task-2', 'main/task-3']);
    await expect
      .poll(() => page.locator('[data-testid="agent-chip"][data-agent="main/task-2"]').textContent(), { timeout: 10_000 })
      .toBe('main/task-2 · tools');
    await page.screenshot({ path: path.join(ARTIFACTS, 'inspector-agents-strip.png') });
    // A child's view: its own conversation, from its own prompt.
    await page.locator('[data-testid="agent-chip"][data-agent="main/task-2"]').click();
    await expect.poll(() => page.locator('[data-testid="agent-path"]').textContent()).toBe('main/task-2');
    const messages = page.locator('[data-testid="message"]');
    await expect.poll(() => messages.first().textContent()).toContain('child prompt number 2');
    expect(await messages.first().textContent()).not.toContain('the main prompt');
    // When it has answered: its answer is in its view, and it has left the strip.
    await watch.run;
    await expect
      .poll(() => messages.allTextContents(), { timeout: 10_000 })
      .toContainEqual(expect.stringContaining('scout answer for: child prompt number 2'));
    await expect.poll(() => chips(page)).toEqual(['main']);
    // The main agent's round that ran the three task calls: their seconds are the task call's (tool), not the engine's.
    await page.locator('[data-testid="agent-chip"][data-agent="main"]').click();
    await expect.poll(() => page.locator('[data-testid="agent-bar"]').isVisible()).toBe(false);
    const round = await roundTime(page, 0);
    expect(round.tool).toBeGreaterThanOrEqual(SLOW_MS * 0.9);
    expect(round.engine ?? 0).toBeLessThan(SLOW_MS * 0.2);
  }, 60_000);
});
