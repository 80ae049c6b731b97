import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ModelResponse, ToolResultBlock } from '../../machines/types.js';
import type { AgentDefinition } from '../../src/agents/definition.js';
import { inspectorChart } from '../../src/inspector/chart.js';
import { createHistory } from '../../src/inspector/history.js';
import { liveFeed } from '../../src/inspector/live-feed.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';
import type { ModelClient } from '../../src/model/types.js';
import { launchChromium } from './chromium.js';
import { runTask, type Run } from './engine-harness.js';

/**
 * A run with subagents for the inspector's browser tests: the main agent starts three scouts at
 * once (task calls `wait 1..3`, prompts `child prompt number 1..3`), each runs the slow tool for
 * `SCOUT_SLOW_MS` and answers `scout answer for: <its prompt>`; the page follows it live.
 */

export const ARTIFACTS = path.resolve('test-artifacts');
export const SCOUT_SLOW_MS = 3_000;
const usage = { input_tokens: 10, output_tokens: 5 };
export const scout: AgentDefinition = {
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
        content: [{ type: 'tool_use', id: `toolu_slow_${asked.replace(/\W/g, '_')}`, name: 'slow', input: { ms: SCOUT_SLOW_MS } }],
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

export interface ScoutsWatch {
  browser: Browser;
  page: Page;
  run: Promise<Run>;
  close(): Promise<void>;
}

/** Opens the live page, then starts the run it follows. @example const watch = await watchThreeScouts('lanes'); await watch.run; await watch.close(); */
export async function watchThreeScouts(sessionId: string): Promise<ScoutsWatch> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await launchChromium();
  let server: InspectorServer | undefined;
  try {
    const history = createHistory();
    const feed = liveFeed(history, { sessionId, model: 'scripted', limits: { maxTurns: 8 }, prompt: 'the main prompt' });
    server = await startInspectorServer({ history, chart: inspectorChart });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(server.url);
    await page.locator('#chart[data-ready="true"]').waitFor();
    const run = runTask([], { model, agents: [scout], observe: feed, onEvidence: feed.evidence, sessionId, prompt: 'the main prompt' });
    const opened = server;
    return {
      browser,
      page,
      run,
      async close() {
        await run.catch(() => undefined);
        await browser.close();
        await opened.close();
      },
    };
  } catch (error) {
    await browser.close();
    await server?.close();
    throw error;
  }
}
