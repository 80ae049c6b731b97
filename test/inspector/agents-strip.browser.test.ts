import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelResponse, ToolResultBlock } from '../../machines/types.js';
import type { AgentDefinition } from '../../src/agents/definition.js';
import { inspectorChart } from '../../src/inspector/chart.js';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';
import type { ModelClient } from '../../src/model/types.js';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { runTask, type Run } from '../support/engine-harness.js';

/**
 * Seeing the agents (issue 36): the main agent starts three scouts at once, each runs a slow tool
 * and answers. The page shows a chip per live agent, a child's view starts from the child's own
 * prompt and holds its answer, and the timing strip gives the children's time to the task call.
 */

const ARTIFACTS = path.resolve('test-artifacts');
const SLOW_MS = 3_000;
const usage = { input_tokens: 10, output_tokens: 5 };
const scout: AgentDefinition = {
  name: 'scout',
  description: 'Waits, then says so',
  prompt: 'SUB: you wait',
  tools: ['slow'],
  model: null,
  permissionMode: null,
  source: 'test',
};

const model: ModelClient = {
  name: 'delegating',
  async createMessage(request): Promise<ModelResponse> {
    const results = request.messages.at(-1)!.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
    if (request.system === scout.prompt) {
      const asked = (request.messages[0]!.content[0] as { text: string }).text;
      if (results.length > 0) return { content: [{ type: 'text', text: `scout answer for: ${asked}` }], stopReason: 'end_turn', usage };
      return {
        content: [{ type: 'tool_use', id: `toolu_slow_${asked.replace(/\W/g, '_')}`, name: 'slow', input: { ms: SLOW_MS } }],
        stopReason: 'tool_use',
        usage,
      };
    }
    if (results.length > 0) return { content: [{ type: 'text', text: 'all three waited' }], stopReason: 'end_turn', usage };
    const task = (k: number) => ({
      type: 'tool_use',
      id: `toolu_task_${k}`,
      name: 'task',
      input: { description: `wait ${k}`, prompt: `child prompt number ${k}`, subagent_type: 'scout' },
    });
    return { content: [task(1), task(2), task(3)], stopReason: 'tool_use', usage };
  },
};

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
  let browser: Browser;
  let server: InspectorServer;
  let page: Page;
  let run: Promise<Run>;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    const history = createHistory();
    const feed = liveFeed(history, { sessionId: 'agents', model: 'scripted', limits: { maxTurns: 8 }, prompt: 'the main prompt' });
    server = await startInspectorServer({ history, chart: inspectorChart });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(server.url);
    await page.locator('#chart[data-ready="true"]').waitFor();
    run = runTask([], { model, agents: [scout], observe: feed, onEvidence: feed.evidence, sessionId: 'agents', prompt: 'the main prompt' });
  });

  afterAll(async () => {
    await run?.catch(() => undefined);
    await browser?.close();
    await server?.close();
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
    await run;
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
