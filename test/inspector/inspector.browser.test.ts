import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, browserTestsRun, launchChromium } from '../support/chromium.js';
import { inspectorChart } from '../../src/inspector/chart.js';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';
import { runTask, type Run } from '../support/engine-harness.js';

const ARTIFACTS = path.resolve('test-artifacts');
// In CI the browser must be there (.ci/run installs it); elsewhere its absence only skips, saying why.
if (!browserTestsRun) {
  console.warn(`inspector.browser.test: skipped because ${CHROMIUM} is missing (apt-get install chromium); in CI it runs.`);
}

/** The seed's regression, slowed down so the page can watch: invalid input, corrected, a slow tool, the answer. */
const script = [
  {
    delay_ms: 600,
    content: [
      { type: 'text' as const, text: 'Let me wait a bit.' },
      { type: 'tool_use' as const, name: 'slow', input: { ms: 'soon' } },
    ],
  },
  { delay_ms: 600, content: [{ type: 'tool_use' as const, name: 'slow', input: { ms: 700 } }] },
  { delay_ms: 600, text: 'Waited; all done.', usage: { input_tokens: 120, output_tokens: 30 } },
];
const EXPECTED = [
  'build_context.starting',
  'build_context.measuring',
  'call_model.checking_limits',
  'call_model.requesting',
  'validate_tool',
  'recover',
  'append_tool_result.collected',
  'call_model.requesting',
  'validate_tool',
  'ask_permission.deciding',
  'execute_tool.running',
  'append_tool_result.collected',
  'call_model.requesting',
  'done',
];
/** The trail under the chart shows the last fourteen states passed. */
const TRAIL = 14;

/** Records every value the lit state takes, as the page shows it, from inside the page. */
async function watchLitState(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __lit: string[] }).__lit = seen;
    const target = document.getElementById('current-state')!;
    const note = () => {
      const name = target.dataset.state ?? '';
      if (name && seen.at(-1) !== name) seen.push(name);
    };
    new MutationObserver(note).observe(target, { attributes: true, childList: true, characterData: true, subtree: true });
    note();
  });
}

function isSubsequence(needle: string[], haystack: string[]): boolean {
  let k = 0;
  for (const item of haystack) if (item === needle[k]) k++;
  return k === needle.length;
}

describe.skipIf(!browserTestsRun)('the inspector in a browser', () => {
  let browser: Browser;
  let server: InspectorServer;
  let page: Page;
  let run: Promise<Run>;
  let history: ReturnType<typeof createHistory>;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    history = createHistory();
    const feed = liveFeed(history, {
      sessionId: 'browser-test',
      model: 'scripted',
      limits: { maxTurns: 8, maxToolCalls: 12, timeoutMs: 120_000 },
      workspace: '/tmp/workspace',
    });
    server = await startInspectorServer({ history, chart: inspectorChart });
    page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
    await page.goto(server.url);
    await page.locator('#chart[data-ready="true"]').waitFor();
    await watchLitState(page);
    run = runTask(script, { observe: feed, sessionId: 'browser-test' });
  });

  afterAll(async () => {
    await run?.catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('lights the state the engine is in as the run moves, and ends lit on done', async () => {
    await expect.poll(() => page.locator('#mode').textContent(), { timeout: 15_000 }).toBe('finished');
    await run;
    const lit = await page.evaluate(() => (window as unknown as { __lit: string[] }).__lit);
    // The resting states are lit while the engine waits in them; transient ones may pass within one frame.
    expect(isSubsequence(['call_model.requesting', 'execute_tool.running', 'call_model.requesting', 'done'], lit), lit.join(' > ')).toBe(
      true,
    );
    expect(lit.every((name) => EXPECTED.includes(name))).toBe(true);
    await expect.poll(() => page.locator('svg [data-state="done"]').getAttribute('class')).toContain('current');
  });

  it('shows every state passed, transient ones included, in order', async () => {
    const trail = await page.locator('[data-testid="trail-item"]').allTextContents();
    expect(trail).toEqual(EXPECTED.slice(-TRAIL));
    await expect(page.locator('#stop-reason').textContent()).resolves.toBe('final_answer');
    await expect(page.locator('#stop-message').textContent()).resolves.toBe('Waited; all done.');
    await expect(page.locator('#gauge-turn .value').textContent()).resolves.toBe('3 / 8');
  });

  it('lists the tool calls in the log and the tool panel, the invalid one marked as an error', async () => {
    const starts = await page.locator('#log [data-kind="tool_start"]').allTextContents();
    expect(starts).toHaveLength(1);
    expect(starts[0]).toContain('slow({"ms":700})');
    const calls = page.locator('[data-testid="tool-call"]');
    await expect(calls.count()).resolves.toBe(2);
    await expect(calls.nth(0).getAttribute('data-status')).resolves.toBe('error');
    await expect(calls.nth(0).locator('[data-testid="tool-error"]').textContent()).resolves.toContain('TOOL_INPUT_INVALID');
    await expect(calls.nth(1).getAttribute('data-status')).resolves.toBe('ok');
    await expect(calls.nth(1).locator('[data-testid="tool-decision"]').textContent()).resolves.toContain(
      'allow — decided by test: allow all',
    );
    await expect(calls.nth(1).locator('[data-testid="tool-result"]').textContent()).resolves.toBe('slow done');
    // The filter hides a kind from the log.
    await page.locator('[data-testid="filter-state"]').uncheck();
    await expect.poll(() => page.locator('#log [data-kind="state"]:not([hidden])').count()).toBe(0);
    await page.locator('[data-testid="filter-state"]').check();
    await expect.poll(() => page.locator('#log [data-kind="state"]:not([hidden])').count()).toBe(EXPECTED.length);
    await page.screenshot({ path: path.join(ARTIFACTS, 'inspector.png'), fullPage: true });
  });

  it('moves the highlight, and its parent box, with the scrubber and the step buttons, and follows live again on request', async () => {
    const lit = () => page.locator('svg').first().getAttribute('data-current');
    const executeStep = EXPECTED.indexOf('execute_tool.running');
    await page.locator('#scrubber').fill(String(executeStep));
    await expect.poll(lit).toBe('execute_tool.running');
    await expect(page.locator('svg [data-state="execute_tool"]').getAttribute('class')).resolves.toContain('current');
    await expect(page.locator('svg [data-state="done"]').getAttribute('class')).resolves.not.toContain('current');
    // The task has not stopped at that step; one step earlier the call was still being decided.
    await expect(page.locator('#stop').isHidden()).resolves.toBe(true);
    await expect(page.locator('#gauge-turn .value').textContent()).resolves.toBe('2 / 8');
    await expect(page.locator('svg [data-state="ask_permission"]').getAttribute('class')).resolves.not.toContain('current-parent');
    await page.locator('#step-back').click();
    await expect.poll(lit).toBe('ask_permission.deciding');
    await expect(page.locator('svg [data-state="ask_permission"]').getAttribute('class')).resolves.toContain('current-parent');
    const call = page.locator('[data-testid="tool-call"]').nth(1);
    await expect.poll(() => call.getAttribute('data-status')).toBe('deciding');
    await expect(call.locator('[data-testid="tool-result"]').count()).resolves.toBe(0);
    await page.locator('#step-first').click();
    await expect.poll(lit).toBe('build_context.starting');
    await page.locator('#step-forward').click();
    await expect.poll(lit).toBe('build_context.measuring');
    await page.locator('#follow-live').click();
    await expect.poll(lit).toBe('done');
  });

  it('keeps an expanded event row open and the log where it was while a run goes on', async () => {
    const rows = page.locator('#log [data-testid="log-row"]');
    await rows.first().locator('summary').click();
    // A short list, so that it scrolls and its top is not its end.
    await page.evaluate(() => {
      const log = document.getElementById('log')!;
      log.style.maxHeight = '120px';
      log.scrollTop = 0;
    });
    const before = await rows.count();
    const more = runTask([{ delay_ms: 400, text: 'Once more.' }], {
      observe: liveFeed(history, { sessionId: 'browser-test', limits: {} }),
      sessionId: 'browser-test',
    });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(before);
    await more;
    await expect.poll(() => page.locator('#mode').textContent()).toBe('finished');
    await expect(
      rows
        .first()
        .locator('details')
        .evaluate((d) => (d as HTMLDetailsElement).open),
    ).resolves.toBe(true);
    await expect(page.evaluate(() => document.getElementById('log')!.scrollTop)).resolves.toBe(0);
  });

  it('marks exactly the transition that entered the lit state', async () => {
    await expect
      .poll(() => page.locator('svg').first().getAttribute('data-last-transition'))
      .toBe('call_model.requesting:xstate.done.actor.callModel>done');
    await expect(page.locator('svg g.edge.last').count()).resolves.toBe(1);
  });

  /** Serves a recorded session's trace and returns the chart edges marked as the last transition at the end. */
  async function replayedLastEdges(sessionDir: string): Promise<string[]> {
    const replay = await startInspectorServer({ history: loadSessionHistory(path.join(sessionDir, 'trace.jsonl')), chart: inspectorChart });
    try {
      const replayPage = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
      await replayPage.goto(replay.url);
      await replayPage.locator('#chart[data-ready="true"]').waitFor();
      await expect.poll(() => replayPage.locator('svg').first().getAttribute('data-current')).toBe('done');
      const edges = await replayPage.locator('svg g.edge.last').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-edge-id') ?? ''));
      await replayPage.context().close();
      return edges;
    } finally {
      await replay.close();
    }
  }

  it('replays a final answer as done(callModel) into done, and a max_turns run as its maxTurnsReached transition', async () => {
    expect(await replayedLastEdges((await run).sessionDir)).toEqual(['call_model.requesting:xstate.done.actor.callModel>done']);
    const maxTurns = await runTask([{ content: [{ type: 'tool_use', name: 'slow', input: { ms: 1 } }] }, { text: 'never' }], {
      maxTurns: 1,
    });
    expect(maxTurns.result.reason).toBe('max_turns');
    expect(await replayedLastEdges(maxTurns.sessionDir)).toEqual(['append_tool_result.collected:always[maxTurnsReached]>done']);
  });

  it('refuses the page and the API without the token', async () => {
    const stranger = await browser.newContext();
    const bare = server.url.split('?')[0]!;
    const response = await (await stranger.newPage()).goto(bare);
    expect(response?.status()).toBe(403);
    const api = await stranger.request.get(`${bare}api/history`);
    expect(api.status()).toBe(403);
    await stranger.close();
  });
});
