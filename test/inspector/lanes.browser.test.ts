import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRunHtml } from '../../src/inspector/export-run.js';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { browserTestsRun } from '../support/chromium.js';
import { tempDir } from '../support/engine-harness.js';
import { ARTIFACTS, SCOUT_SLOW_MS as SLOW_MS, watchThreeScouts, type ScoutsWatch } from '../support/three-scouts.js';

/**
 * Swim lanes per agent on the timing strip (issue 36): three scouts run at once; the strip has a
 * lane for main and one per scout, in the order they started, and each scout's slow tool is in its
 * own lane, under the main lane's task call, live and in an exported replay.
 */

interface Seg {
  kind: string;
  startMs: number;
  ms: number;
}
interface DrawnLane {
  agent: string;
  label: string;
  segs: Seg[];
}

const drawnLanes = (page: Page): Promise<DrawnLane[]> =>
  page.locator('[data-testid="timing-lane"]').evaluateAll((lanes) =>
    (lanes as HTMLElement[]).map((lane) => ({
      agent: lane.dataset.agent ?? '',
      label: lane.querySelector('.lane-label')?.textContent ?? '',
      segs: [...lane.querySelectorAll<HTMLElement>('[data-testid="lane-seg"]')].map((s) => ({
        kind: s.dataset.kind ?? '',
        startMs: Number(s.dataset.startMs),
        ms: Number(s.dataset.ms),
      })),
    })),
  );

const CHILDREN = ['main/task-1', 'main/task-2', 'main/task-3'];
const msOf = (lane: DrawnLane | undefined, kind: string) =>
  (lane?.segs ?? []).filter((s) => s.kind === kind).reduce((sum, s) => sum + s.ms, 0);

/** Four lanes, main first; each child's slow tool in its own lane, inside the main lane's task call; no child time as the main agent's engine. */
function expectFourLanes(lanes: DrawnLane[]): void {
  expect(lanes.map((l) => l.agent)).toEqual(['main', ...CHILDREN]);
  expect(lanes.map((l) => l.label)).toEqual(['main', ...CHILDREN.map((c) => `scout · ${c}`)]);
  const [main, ...children] = lanes;
  const taskCall = main!.segs.find((s) => s.kind === 'tool' && s.ms >= SLOW_MS * 0.9);
  expect(taskCall).toBeDefined();
  expect(msOf(main, 'engine')).toBeLessThan(SLOW_MS * 0.2);
  for (const child of children) {
    const slow = child.segs.find((s) => s.kind === 'tool');
    expect(slow?.ms).toBeGreaterThanOrEqual(SLOW_MS * 0.9);
    expect(msOf(child, 'model')).toBeGreaterThan(0);
    expect(slow!.startMs).toBeGreaterThanOrEqual(taskCall!.startMs);
    expect(slow!.startMs + slow!.ms).toBeLessThanOrEqual(taskCall!.startMs + taskCall!.ms + 5);
  }
}

describe.skipIf(!browserTestsRun)('the timing strip’s swim lanes', () => {
  let watch: ScoutsWatch;

  beforeAll(async () => {
    watch = await watchThreeScouts('lanes');
  });

  afterAll(async () => {
    await watch?.close();
  });

  it('draws a lane per agent live: main and the three scouts, each scout’s tool in its own lane under the task call', async () => {
    const { page } = watch;
    // Live, while the scouts wait in their slow tool: four lanes, each scout's in tool time.
    await expect
      .poll(async () => (await drawnLanes(page)).map((l) => `${l.agent}:${l.segs.at(-1)?.kind}`), { timeout: 15_000 })
      .toEqual(['main:tool', ...CHILDREN.map((c) => `${c}:tool`)]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'inspector-lanes-live.png') });
    await watch.run;
    await expect.poll(() => page.locator('#mode').textContent(), { timeout: 10_000 }).toBe('finished');
    expectFourLanes(await drawnLanes(page));
    // Looking at a child keeps every agent's lanes.
    await page.locator('[data-testid="open-agent"][data-agent="main/task-3"]').click();
    await expect.poll(() => page.locator('[data-testid="agent-path"]').textContent()).toBe('main/task-3');
    expectFourLanes(await drawnLanes(page));
  }, 45_000);

  it('draws the same lanes in an exported replay', async () => {
    const file = path.join(tempDir('xagent-lanes-'), 'run.html');
    await exportRunHtml(loadSessionHistory(path.join((await watch.run).sessionDir, 'trace.jsonl')), file);
    const page = await (await watch.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`file://${file}`);
    await page.locator('#chart[data-ready="true"]').waitFor();
    await expect.poll(async () => (await drawnLanes(page)).length).toBe(4);
    expectFourLanes(await drawnLanes(page));
    await page.screenshot({ path: path.join(ARTIFACTS, 'inspector-lanes-replay.png') });
    await page.context().close();
  }, 30_000);
});
