import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { assertBuilt } from '../sessions/cli.js';
import { PERMISSIVE, PROMPTS, runThreeTasks, THREE_TASKS } from './scenario.js';

beforeAll(assertBuilt);

const api = useFakeApi();

interface Rec {
  i: number;
  kind: string;
  n?: number;
  fork_command?: string | null;
  why_not?: string;
  to?: number;
}

describe.skipIf(!browserTestsRun)('a rewound session in the inspector', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('is one timeline with the rewind marked, each step shows its fork command, and the export keeps it all', {
    timeout: 90_000,
  }, async () => {
    const env = await api.start(THREE_TASKS);
    const ran = await runThreeTasks(api.fake, env, api.workspace);
    expect((await runCli(['rewind', ran.id, '--to', '2'], { env, cwd: api.workspace })).code).toBe(0);
    api.fake.push({ text: 'Second, differently.' });
    const again = await runCli(['-p', 'second, differently', '--resume', ran.id, ...PERMISSIVE], { env, cwd: api.workspace });
    expect(again.code, again.stderr).toBe(0);

    const file = path.join(api.home, 'rewound.html');
    const exported = await runCli(['inspect', ran.id, '--export', file], { env, cwd: api.workspace });
    expect(exported.code, exported.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    const records = (
      JSON.parse(/<script type="application\/json" id="xagent-run">([\s\S]*?)<\/script>/.exec(html)![1]!) as { records: Rec[] }
    ).records;
    // One timeline: the three first tasks, the rewind, the task after it, in the order they happened.
    const marks = records
      .filter((r) => r.kind === 'prompt' || r.kind === 'rewind')
      .map((r) => (r.kind === 'rewind' ? `rewind ${r.to}` : `message ${r.n}`));
    expect(marks).toEqual(['message 1', 'message 2', 'message 3', 'rewind 2', 'message 2']);
    const prompts = records.filter((r) => r.kind === 'prompt');
    expect(prompts.map((p) => p.fork_command)).toEqual([`xagent fork ${ran.id} --to 1`, null, null, `xagent fork ${ran.id} --to 2`]);
    expect(prompts[2]!.why_not).toContain('cut from the conversation by a rewind to message 2');

    const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`file://${file}`);
    await page.locator('#chart[data-ready="true"]').waitFor();
    await expect.poll(() => page.locator('[data-testid="rewind-mark"]').allTextContents()).toEqual(['↶ 2']);

    // A step of each task, by its place among the state records.
    const steps = records.filter((r) => r.kind === 'state').map((r) => r.i);
    const stepIn = (prompt: Rec) => steps.findIndex((i) => i > prompt.i) + 1;
    const forkAt = async (step: number) => {
      await page.locator('#scrubber').fill(String(step));
      await expect.poll(() => page.locator('#step-label').getAttribute('data-step')).toBe(String(step));
      return page.locator('[data-testid="fork-command"]').textContent();
    };
    expect(await forkAt(stepIn(prompts[0]!))).toContain(`xagent fork ${ran.id} --to 1`);
    expect(await forkAt(stepIn(prompts[2]!))).toContain('can no longer be forked');
    expect(await forkAt(steps.length - 1)).toContain(`xagent fork ${ran.id} --to 2`);
    // At the last step the conversation is the one the model saw: the rewind marked, the cut tasks gone.
    await expect.poll(() => page.locator('[data-testid="conversation-rewind"]').count()).toBe(1);
    const said = await page.locator('#conversation').textContent();
    expect(said).toContain(PROMPTS[0]);
    expect(said).toContain('second, differently');
    expect(said).not.toContain(PROMPTS[2]);
    expect(errors).toEqual([]);
  });
});
