import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/engine/limits.js';
import { resolveHooks, type HookInput } from '../../src/hooks/index.js';
import { createApiModel } from '../../src/run/model-factory.js';
import { prepareRun } from '../../src/run/prepare-run.js';
import { buildRunConfig, policyFor, type RunConfig } from '../../src/run/run-config.js';

const task = (run: Awaited<ReturnType<typeof prepareRun>>, config: RunConfig, prompt: string) =>
  run.runTask({
    prompt,
    permissions: policyFor(config),
    signal: new AbortController().signal,
    renderer: { onEvent: () => undefined, finish: () => undefined },
  });

describe('SessionStart hooks', () => {
  it('run once per session, not per task: "startup" for a new session, "resume" for a resumed one', async () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'xagent-session-start-'));
    const home = mkdtempSync(path.join(os.tmpdir(), 'xagent-session-start-home-'));
    const modelScript = path.join(workspace, 'script.json');
    writeFileSync(modelScript, JSON.stringify({ responses: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] }));
    const seen: HookInput[] = [];
    const record = (input: HookInput) => {
      seen.push(input);
      return {};
    };
    const hooks = resolveHooks({ SessionStart: [{ hooks: [{ type: 'function', callback: record }] }] }, 'test');
    const configFor = (session: { resume?: string; continue: boolean }): RunConfig => ({
      ...buildRunConfig(
        { cwd: workspace, modelScript, limits: DEFAULT_LIMITS, format: 'text', inspectPort: null, session, prompt: 'hi' },
        { ...process.env, XAGENT_HOME: home },
        createApiModel,
      ),
      hooks,
    });
    const stderr = new PassThrough().resume();

    const config = configFor({ continue: false });
    const run = await prepareRun(config, { stderr });
    expect((await task(run, config, 'first')).reason).toBe('final_answer');
    expect((await task(run, config, 'second')).reason).toBe('final_answer');
    await run.close();
    expect(seen.map((input) => input.source)).toEqual(['startup']);

    const resumed = configFor({ resume: run.session.sessionId, continue: false });
    const again = await prepareRun(resumed, { stderr });
    expect((await task(again, resumed, 'third')).reason).toBe('final_answer');
    await again.close();
    expect(seen.map((input) => input.source)).toEqual(['startup', 'resume']);
    expect(seen[1]?.session_id).toBe(run.session.sessionId);
  });
});
