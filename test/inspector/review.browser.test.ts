import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { inspectorChart } from '../../src/inspector/chart.js';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';
import { runTask, tempDir, writeJson } from '../support/engine-harness.js';
import { runCli } from '../support/run-cli.js';

/**
 * The inspector read as a person reads it on a 1,280 x 800 laptop window: the live page while a
 * run goes on, and a report exported with `xagent inspect --export` opened from file:// with every
 * request that is not a file aborted.
 */

const VIEWPORT = { width: 1280, height: 800 };
const SECRET = 'sk-ant-api03-reviewTESTsecretVALUE0123456789abcdefghij';

const script = [
  {
    delay_ms: 300,
    content: [
      { type: 'text' as const, text: 'Let me wait a bit.' },
      { type: 'tool_use' as const, name: 'slow', input: { ms: 'soon' } },
    ],
  },
  { delay_ms: 300, content: [{ type: 'tool_use' as const, name: 'slow', input: { ms: 400 } }] },
  { delay_ms: 300, text: 'Waited; all done.' },
];

/** Every state box's title size in screen pixels, and whether the lit state lies inside the visible chart panel. */
async function measure(page: Page): Promise<{ minTitlePx: number; litInside: boolean; lit: string }> {
  return page.evaluate(() => {
    const chart = document.getElementById('chart')!;
    const svg = chart.querySelector('svg')!;
    const scale = svg.getScreenCTM()!.a;
    const titles = [...svg.querySelectorAll('.state text.title')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    const lit = svg.querySelector('.state.current');
    const box = lit?.getBoundingClientRect();
    const view = chart.getBoundingClientRect();
    const inWindow = (b: DOMRect) => b.top >= 0 && b.bottom <= window.innerHeight && b.left >= 0 && b.right <= window.innerWidth;
    const litInside =
      !!box && box.left >= view.left && box.right <= view.right && box.top >= view.top && box.bottom <= view.bottom && inWindow(box);
    return { minTitlePx: Math.min(...titles), litInside, lit: lit?.getAttribute('data-state') ?? '' };
  });
}

/** What the conversation panel shows: one line per message, `role: block, block`. */
async function conversation(page: Page): Promise<string[]> {
  return page.locator('#conversation [data-testid="message"]').evaluateAll((items) =>
    items.map((li) => {
      const blocks = [...li.querySelectorAll('.block')].map((b) => {
        const type = (b as HTMLElement).dataset.type;
        if (type === 'text') return `text "${b.textContent}"`;
        if (type === 'tool_use')
          return `tool_use ${b.querySelector('strong')?.textContent} ${b.querySelector('pre')?.textContent?.replace(/\s+/g, '')}`;
        return `${type}${b.classList.contains('error') ? ' error' : ''}`;
      });
      return `${(li as HTMLElement).dataset.role}: ${blocks.join(', ')}`;
    }),
  );
}

/** Waits until `read()` gives `want` (expect.poll belongs to tests, not to their setup). */
async function until(read: () => Promise<unknown>, want: unknown, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    last = await read();
    if (last === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`waited ${timeoutMs} ms for ${JSON.stringify(want)}, last saw ${JSON.stringify(last)}`);
}

describe.skipIf(!browserTestsRun)('reading a run in the inspector at 1,280 x 800', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('the live page', () => {
    let server: InspectorServer;
    let page: Page;

    beforeAll(async () => {
      const history = createHistory();
      const feed = liveFeed(history, {
        sessionId: 'review-live',
        model: 'scripted',
        limits: { maxTurns: 8, maxToolCalls: 12, timeoutMs: 120_000 },
        prompt: 'wait for me',
      });
      server = await startInspectorServer({ history, chart: inspectorChart });
      page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
      await page.goto(server.url);
      await page.locator('#chart[data-ready="true"]').waitFor();
      await until(() => page.locator('#source').textContent(), 'live');
      const run = runTask(script, { observe: feed, sessionId: 'review-live', prompt: 'wait for me' });
      await until(() => page.locator('#mode').textContent(), 'running');
      await run;
      await until(() => page.locator('#mode').textContent(), 'finished');
    }, 30_000);
    afterAll(async () => {
      await server?.close();
    });

    it('draws the chart with every state name at least 11 px tall and the lit state in view, at every step', async () => {
      const steps = Number(await page.locator('#scrubber').getAttribute('max'));
      expect(steps).toBeGreaterThan(8);
      for (let k = 0; k <= steps; k++) {
        await page.locator('#scrubber').fill(String(k));
        await expect.poll(() => page.locator('#step-label').getAttribute('data-step')).toBe(String(k));
        const m = await measure(page);
        expect(m.minTitlePx, `step ${k}`).toBeGreaterThanOrEqual(11);
        expect(m.litInside, `step ${k}: ${m.lit}`).toBe(true);
      }
    }, 30_000);

    it('shows the label of the transition just taken, and keeps the lit state in view when the whole chart is fitted', async () => {
      await page.locator('#follow-live').click();
      const tip = page.locator('.tip-holder.last [data-testid="edge-tip"]');
      await expect.poll(() => tip.count()).toBe(1);
      expect(await tip.textContent()).toContain('done(callModel)');
      const tipPx = await tip
        .locator('text')
        .first()
        .evaluate((t) => parseFloat(getComputedStyle(t).fontSize) * (t as SVGGraphicsElement).getScreenCTM()!.a);
      expect(tipPx).toBeGreaterThanOrEqual(11);
      await page.locator('#chart-zoom').click();
      for (const step of ['step-first', 'step-forward', 'step-forward', 'step-forward', 'step-forward', 'step-forward']) {
        await page.locator(`#${step}`).click();
        await expect.poll(async () => (await measure(page)).litInside).toBe(true);
      }
      await page.locator('#follow-live').click();
      await expect.poll(async () => (await measure(page)).lit).toBe('done');
      await expect.poll(async () => (await measure(page)).litInside).toBe(true);
      await page.locator('#chart-zoom').click();
    }, 30_000);

    it('shows the conversation as the model saw it at the chosen step, one text block per turn', async () => {
      // The second call waits for its permission: the invalid first call has its error result, the second none yet.
      const askStep = await page.evaluate(() =>
        [...document.querySelectorAll('#log [data-kind="state"]')]
          .map((r) => r.textContent ?? '')
          .findIndex((t) => t.includes('ask_permission')),
      );
      expect(askStep).toBeGreaterThan(0);
      await page.locator('#scrubber').fill(String(askStep));
      await expect.poll(() => page.locator('#current-state').textContent()).toBe('ask_permission.deciding');
      expect(await conversation(page)).toEqual([
        'user: text "wait for me"',
        'assistant: text "Let me wait a bit.", tool_use slow {"ms":"soon"}',
        'user: tool_result error',
        'assistant: tool_use slow {"ms":400}',
      ]);
      await page.locator('#follow-live').click();
      await expect
        .poll(() => conversation(page))
        .toEqual([
          'user: text "wait for me"',
          'assistant: text "Let me wait a bit.", tool_use slow {"ms":"soon"}',
          'user: tool_result error',
          'assistant: tool_use slow {"ms":400}',
          'user: tool_result',
          'assistant: text "Waited; all done."',
        ]);
      // Three rounds, the second one with the slow tool in its strip.
      await expect(page.locator('[data-testid="timing-round"]').count()).resolves.toBe(3);
      expect(await page.locator('[data-testid="timing-round"]').nth(1).textContent()).toMatch(/slow \d+ms/);
    });
  });

  describe('a report exported to one HTML file', () => {
    const home = tempDir('xagent-report-');
    const workspace = tempDir('xagent-report-ws-');
    let file = '';
    let trace: string[] = [];
    let page: Page;
    const requested: string[] = [];
    const errors: string[] = [];

    beforeAll(async () => {
      writeFileSync(path.join(workspace, 'notes.txt'), 'hello\n');
      const first = writeJson(path.join(home, 'first.json'), {
        responses: [
          {
            content: [
              { type: 'text', text: 'Reading.' },
              { type: 'tool_use', name: 'read_file', input: { path: 'notes.txt' } },
            ],
          },
          { text: `It says hello. (key ${SECRET})` },
        ],
      });
      const second = writeJson(path.join(home, 'second.json'), { responses: [{ text: 'Second task done.' }] });
      const env = { XAGENT_HOME: home, ANTHROPIC_API_KEY: SECRET };
      const common = ['--cwd', workspace, '--permission-mode', 'bypassPermissions'];
      expect((await runCli(['-p', 'read the notes', '--model-script', first, ...common], { env })).code).toBe(0);
      expect((await runCli(['-p', 'and now?', '--continue', '--model-script', second, ...common], { env })).code).toBe(0);
      const [id] = readdirSync(path.join(home, 'sessions'));
      trace = readFileSync(path.join(home, 'sessions', id!, 'trace.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { state?: string; event?: string })
        .filter((l) => l.event === undefined && typeof l.state === 'string')
        .map((l) => l.state!);
      file = path.join(home, 'run.html');
      const exported = await runCli(['inspect', id!, '--export', file], { env });
      expect(exported.code, exported.stderr).toBe(0);
      const context = await browser.newContext({ viewport: VIEWPORT });
      await context.route(
        (url) => url.protocol !== 'file:',
        (route) => {
          requested.push(route.request().url());
          return route.abort();
        },
      );
      page = await context.newPage();
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`file://${file}`);
      await page.locator('#chart[data-ready="true"]').waitFor();
    }, 60_000);

    it('is one file with no secret in it and nothing to fetch', async () => {
      const html = readFileSync(file, 'utf8');
      expect(html).not.toContain(SECRET);
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
      await expect.poll(() => page.locator('#mode').textContent()).toBe('finished');
      expect(await page.locator('#source').textContent()).toBe('replay (exported file)');
      expect(requested).toEqual([]);
      expect(errors).toEqual([]);
    });

    it('steps through the whole run from the first step to the last, with the lit state in view', async () => {
      expect(trace.length).toBeGreaterThan(10);
      await page.locator('#step-first').click();
      const seen: string[] = [];
      for (let k = 0; k < trace.length; k++) {
        await expect.poll(() => page.locator('#step-label').getAttribute('data-step')).toBe(String(k));
        seen.push((await page.locator('#current-state').textContent()) ?? '');
        const m = await measure(page);
        expect(m.litInside).toBe(true);
        expect(m.minTitlePx).toBeGreaterThanOrEqual(11);
        await page.locator('#step-forward').click();
      }
      expect(seen).toEqual(trace);
    }, 30_000);

    it('marks the two tasks on the scrubber and shows each task in the conversation', async () => {
      await expect(page.locator('[data-testid="task-mark"]').allTextContents()).resolves.toEqual(['task 1', 'task 2']);
      const secondTask = Number(await page.locator('[data-testid="task-mark"]').nth(1).getAttribute('data-step'));
      expect(trace[secondTask]).toBe('build_context.starting');
      await page.locator('#scrubber').fill(String(secondTask - 1));
      await expect.poll(() => page.locator('[data-testid="conversation-task"]').count()).toBe(1);
      // Each task opens with its own prompt (the replay numbers the tasks' messages).
      expect(await conversation(page)).toEqual([
        'user: text "read the notes"',
        'assistant: text "Reading.", tool_use read_file {"path":"notes.txt"}',
        'user: tool_result',
        'assistant: text "It says hello. (key [redacted])"',
      ]);
      await page.locator('#follow-live').click();
      await expect.poll(() => page.locator('[data-testid="conversation-task"]').count()).toBe(2);
      expect((await conversation(page)).at(-1)).toBe('assistant: text "Second task done."');
    });
  });
});
