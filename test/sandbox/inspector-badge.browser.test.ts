import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { SANDBOX_DECIDED_BY } from '../../src/permissions/check-permission.js';
import { inspectorChart } from '../../src/inspector/chart.js';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';

describe.skipIf(!browserTestsRun)('the inspector marks sandboxed calls', () => {
  let browser: Browser | undefined;
  let server: InspectorServer | undefined;
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a "sandboxed" badge on a call that ran in the sandbox, and none on one that did not', async () => {
    const history = createHistory();
    const observe = liveFeed(history, {
      sessionId: 'sandbox-badge',
      model: 'scripted',
      limits: { maxTurns: 8, maxToolCalls: 12, timeoutMs: 120_000 },
      workspace: '/ws',
    });
    const boxed = { id: 'toolu_boxed', name: 'bash', input: { command: 'make' } };
    const plain = { id: 'toolu_plain', name: 'read_file', input: { path: 'a.txt' } };
    // The events exactly as the engine emits them (src/engine/implementations.ts); the CLI test checks that it does.
    observe({ type: 'tool_start', call: boxed });
    observe({ type: 'tool_result', call: boxed, result: { content: 'ok\n[exit code: 0]', is_error: false, sandboxed: true } });
    observe({ type: 'tool_start', call: plain });
    observe({ type: 'tool_result', call: plain, result: { content: 'text', is_error: false } });
    server = await startInspectorServer({ history, chart: inspectorChart });
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(server.url);
    const calls = page.locator('[data-testid="tool-call"]');
    await expect.poll(() => calls.count()).toBe(2);
    const boxedBadge = page.locator('[data-call-id="toolu_boxed"] [data-testid="tool-sandboxed"]');
    await expect.poll(() => boxedBadge.isVisible()).toBe(true);
    expect(await boxedBadge.textContent()).toBe('sandboxed');
    expect(await page.locator('[data-call-id="toolu_plain"] [data-testid="tool-sandboxed"]').isVisible()).toBe(false);
    expect(SANDBOX_DECIDED_BY).toMatch(/^sandbox:/); // what the badge also keys on before the result arrives
  }, 60_000);
});
