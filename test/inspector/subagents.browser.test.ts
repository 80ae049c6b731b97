import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelResponse, ToolResultBlock } from '../../machines/types.js';
import type { AgentDefinition } from '../../src/agents/definition.js';
import { inspectorChart } from '../../src/inspector/chart.js';
import { exportRunHtml } from '../../src/inspector/export-run.js';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';
import type { ModelClient } from '../../src/model/types.js';
import { runTask, tempDir, type Run } from '../support/engine-harness.js';
import { browserTestsRun, launchChromium } from '../support/chromium.js';

/**
 * Two subagents run a slow tool while the page follows the run: a task card opens the child's own
 * chart, lit where the child is, live and in an exported file.
 */

const ARTIFACTS = path.resolve('test-artifacts');
const SLOW_MS = 6_000;
const usage = { input_tokens: 10, output_tokens: 5 };
const scout: AgentDefinition = {
  name: 'scout',
  description: 'Waits',
  prompt: 'SUB: you wait',
  tools: ['slow'],
  model: null,
  permissionMode: null,
  source: 'test',
};

/** The main agent starts two scouts at once; a scout runs `slow` once, then answers. */
const model: ModelClient = {
  name: 'delegating',
  async createMessage(request): Promise<ModelResponse> {
    const results = request.messages.at(-1)!.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
    if (request.system === scout.prompt) {
      if (results.length > 0) return { content: [{ type: 'text', text: 'waited' }], stopReason: 'end_turn', usage };
      return {
        content: [{ type: 'tool_use', id: `toolu_slow_${Math.random().toString(36).slice(2)}`, name: 'slow', input: { ms: SLOW_MS } }],
        stopReason: 'tool_use',
        usage,
      };
    }
    if (results.length > 0)
      return { content: [{ type: 'text', text: results.map((r) => r.content).join(', ') }], stopReason: 'end_turn', usage };
    const task = (k: number) => ({
      type: 'tool_use',
      id: `toolu_task_${k}`,
      name: 'task',
      input: { description: `wait ${k}`, prompt: 'wait', subagent_type: 'scout' },
    });
    return { content: [task(1), task(2)], stopReason: 'tool_use', usage };
  },
};

async function openChild(page: Page, child: string): Promise<void> {
  const button = page.locator(`[data-testid="open-agent"][data-agent="${child}"]`);
  await button.waitFor({ timeout: 15_000 });
  await button.click();
  await expect.poll(() => page.locator('[data-testid="agent-path"]').textContent()).toBe(child);
}

describe.skipIf(!browserTestsRun)('the inspector and subagents', () => {
  let browser: Browser;
  let server: InspectorServer;
  let page: Page;
  let run: Promise<Run>;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    const history = createHistory();
    const feed = liveFeed(history, { sessionId: 'subagents', model: 'scripted', limits: { maxTurns: 8 }, prompt: 'delegate' });
    server = await startInspectorServer({ history, chart: inspectorChart });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(server.url);
    await page.locator('#chart[data-ready="true"]').waitFor();
    run = runTask([], { model, agents: [scout], observe: feed, onEvidence: feed.evidence, sessionId: 'subagents', prompt: 'delegate' });
  });

  afterAll(async () => {
    await run?.catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it("opens a running child's chart from its task card, live, lit where the child is", async () => {
    const svg = page.locator('#chart svg');
    // The main chart waits in the batch that runs the two task calls.
    await expect.poll(() => svg.getAttribute('data-current'), { timeout: 15_000 }).toBe('execute_tool.batch');
    await openChild(page, 'main/task-2');
    // The child's own chart: it runs its slow tool, and its tool card is its own.
    await expect.poll(() => svg.getAttribute('data-current'), { timeout: 10_000 }).toBe('execute_tool.running');
    await expect.poll(() => page.locator('[data-testid="tool-call"]:visible').getAttribute('data-tool-name')).toBe('slow');
    await page.screenshot({ path: path.join(ARTIFACTS, 'inspector-subagent-live.png') });
    // Back to the main agent: its chart still waits in the batch.
    await page.locator('[data-testid="agent-main"]').click();
    await expect.poll(() => svg.getAttribute('data-current')).toBe('execute_tool.batch');
    expect(await page.locator('[data-testid="agent-bar"]').isVisible()).toBe(false);
    await expect.poll(() => page.locator('#mode').textContent(), { timeout: 20_000 }).toBe('finished');
    await expect.poll(() => svg.getAttribute('data-current')).toBe('done');
  }, 45_000);

  it("opens a child's chart from its task card in an exported file", async () => {
    const file = path.join(tempDir('xagent-subagents-'), 'run.html');
    await exportRunHtml(loadSessionHistory(path.join((await run).sessionDir, 'trace.jsonl')), file);
    const exported = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await exported.goto(`file://${file}`);
    await exported.locator('#chart[data-ready="true"]').waitFor();
    await openChild(exported, 'main/task-1');
    const svg = exported.locator('#chart svg');
    await expect.poll(() => svg.getAttribute('data-current')).toBe('done');
    // The child's steps are its own: a chart of one model round with its slow tool, not the main agent's batch.
    const trail = await exported
      .locator('[data-testid="trail-item"]')
      .evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset.state));
    expect(trail).toContain('execute_tool.running');
    expect(trail).not.toContain('execute_tool.batch');
    await exported.screenshot({ path: path.join(ARTIFACTS, 'inspector-subagent-export.png') });
    await exported.context().close();
  }, 30_000);
});
