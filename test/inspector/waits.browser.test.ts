import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { inspectorChart } from '../../src/inspector/chart.js';
import { exportRunHtml } from '../../src/inspector/export-run.js';
import { createHistory, type InspectorHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import type { RecordBody } from '../../src/inspector/records.js';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';
import { policy, runTask, tempDir, type Run } from '../support/engine-harness.js';

/**
 * A run that waits ten seconds for the person's answer, then ten seconds for its tool: the page
 * says it is waiting while the dialog is open, lights the dialog's state and its box, and the
 * timing strip gives each wait its own segment, live and in an exported file.
 */

const ARTIFACTS = path.resolve('test-artifacts');
const WAIT_MS = 10_000;
const script = [{ content: [{ type: 'tool_use' as const, name: 'slow', input: { ms: WAIT_MS } }] }, { text: 'Waited twice.' }];
const askSlowly = policy(
  () => ({ behavior: 'ask', decidedBy: 'test: slow asks' }),
  () => new Promise((resolve) => setTimeout(() => resolve({ behavior: 'allow', decidedBy: 'the user: yes' }), WAIT_MS)),
);

/** The first round's time per kind, read from the strip's segments (the model's split into first token and streaming added up). */
async function firstRound(page: Page): Promise<Record<string, number>> {
  return page
    .locator('[data-testid="timing-round"]')
    .first()
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

describe.skipIf(!browserTestsRun)('the inspector while a run waits for the person and for a tool', () => {
  let browser: Browser;
  let server: InspectorServer;
  let page: Page;
  let run: Promise<Run>;
  let history: InspectorHistory;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    history = createHistory();
    const observe = liveFeed(history, {
      sessionId: 'waits',
      model: 'scripted',
      limits: { maxTurns: 4, timeoutMs: 120_000 },
      prompt: 'wait',
    });
    server = await startInspectorServer({ history, chart: inspectorChart });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(server.url);
    await page.locator('#chart[data-ready="true"]').waitFor();
    run = runTask(script, { observe, permissions: askSlowly, sessionId: 'waits', prompt: 'wait' });
  });

  afterAll(async () => {
    await run?.catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('says in the header that the run waits for your answer, and lights the dialog state and its box', async () => {
    const waiting = page.locator('#waiting');
    await expect.poll(() => waiting.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await waiting.textContent()).toBe('waiting for your answer: slow {"ms":10000}');
    const svg = page.locator('#chart svg');
    await expect.poll(() => svg.getAttribute('data-current')).toBe('ask_permission.asking_user');
    expect(await page.locator('svg [data-state="ask_permission.asking_user"]').getAttribute('class')).toContain('current');
    expect(await page.locator('svg [data-state="ask_permission"]').getAttribute('class')).toContain('current-parent');
    expect(await page.locator('svg [data-state="call_model"]').getAttribute('class')).not.toContain('current-parent');
    // The person's share counts up while the dialog is open.
    await expect.poll(async () => (await firstRound(page)).person ?? 0, { timeout: 8_000 }).toBeGreaterThan(3_000);
    await page.screenshot({ path: path.join(ARTIFACTS, 'inspector-dialog.png') });
    // Once answered, the tool runs and nobody is waited for.
    await expect.poll(() => svg.getAttribute('data-current'), { timeout: 15_000 }).toBe('execute_tool.running');
    expect(await waiting.isVisible()).toBe(false);
    expect(await page.locator('svg [data-state="ask_permission"]').getAttribute('class')).not.toContain('current-parent');
  }, 30_000);

  it('times the person and the tool in their own segments of the round, live', async () => {
    // Live, the tool's segment grows while it runs; the engine's does not.
    await expect.poll(async () => (await firstRound(page)).tool ?? 0, { timeout: 10_000 }).toBeGreaterThan(2_000);
    expect((await firstRound(page)).engine).toBeLessThan(3_000);
    await expect.poll(() => page.locator('#mode').textContent(), { timeout: 20_000 }).toBe('finished');
    await run;
    const ms = await firstRound(page);
    expect(ms.person).toBeGreaterThanOrEqual(9_000);
    expect(ms.tool).toBeGreaterThanOrEqual(9_000);
    expect(ms.engine).toBeLessThan(3_000);
    const head = await page.locator('[data-testid="timing-round"]').first().textContent();
    expect(head).toMatch(/slow \d+\.\ds · waiting for you \d+\.\ds · engine/);
  }, 40_000);

  it('times them the same way in an exported file', async () => {
    const file = path.join(tempDir('xagent-waits-'), 'run.html');
    await exportRunHtml(loadSessionHistory(path.join((await run).sessionDir, 'trace.jsonl')), file);
    const exported = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await exported.goto(`file://${file}`);
    await exported.locator('#chart[data-ready="true"]').waitFor();
    await expect.poll(() => exported.locator('#mode').textContent()).toBe('finished');
    const ms = await firstRound(exported);
    expect(ms.person).toBeGreaterThanOrEqual(9_000);
    expect(ms.tool).toBeGreaterThanOrEqual(9_000);
    expect(ms.engine).toBeLessThan(3_000);
    expect(await exported.locator('#waiting').isVisible()).toBe(false);
    await exported.context().close();
  }, 30_000);
});

describe.skipIf(!browserTestsRun)('a trace recorded by another chart', () => {
  let browser: Browser | undefined;
  afterAll(async () => browser?.close());

  it('is lit by the transitions this chart has, never by an edge guessed from its two states, and says so', async () => {
    const history = createHistory();
    // The meta record carries both charts' fingerprints; `recorded` is null for a trace older than fingerprints.
    const meta = { kind: 'meta', mode: 'replay', session_id: 'old', limits: {}, chart: { recorded: null, current: 'c0ffee' } };
    history.append(meta as RecordBody);
    const step = (seq: number, name: string, via: { event: string; transition?: string }) =>
      history.append({
        kind: 'state',
        name,
        seq,
        via,
        turn: 1,
        tool_call_count: 0,
        usage: { input_tokens: 0, output_tokens: 0 },
      } as RecordBody);
    step(0, 'build_context.starting', { event: 'xstate.init' });
    // An old line without the transition's name: its two states are joined by exactly one edge here, but it is not lit.
    step(1, 'build_context.measuring', { event: 'always' });
    const server = await startInspectorServer({ history, chart: inspectorChart });
    try {
      browser = await launchChromium();
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.locator('#chart[data-ready="true"]').waitFor();
      await expect.poll(() => page.locator('#chart svg').getAttribute('data-current')).toBe('build_context.measuring');
      expect(await page.locator('#chart svg').getAttribute('data-last-transition')).toBe('');
      expect(await page.locator('#chart svg g.edge.taken').count()).toBe(0);
      await expect.poll(() => page.locator('#chart-note').isVisible()).toBe(true);
      expect(await page.locator('#chart-note').textContent()).toBe(
        'recorded by an older chart: transitions not in this chart are not highlighted',
      );
      // A line that names a transition this chart has is lit.
      step(2, 'call_model.checking_limits', { event: 'always', transition: 'build_context.measuring:always>call_model' });
      await expect
        .poll(() => page.locator('#chart svg').getAttribute('data-last-transition'))
        .toBe('build_context.measuring:always>call_model');
      expect(await page.locator('svg [data-state="call_model"]').getAttribute('class')).toContain('current-parent');
    } finally {
      await server.close();
    }
  }, 30_000);
});
