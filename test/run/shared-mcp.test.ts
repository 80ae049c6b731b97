import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { contextCommands } from '../../src/run/context-commands.js';
import { DEFAULT_LIMITS } from '../../src/engine/limits.js';
import { createApiModel } from '../../src/run/model-factory.js';
import { prepareRun } from '../../src/run/prepare-run.js';
import { buildRunConfig, policyFor } from '../../src/run/run-config.js';
import { processesWith, writeMcpJson } from '../mcp/support.js';
import { writeTinyServer } from '../mcp/tiny-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a run that shares another run’s MCP servers (the terminal UI’s /clear and /resume)', () => {
  it('uses them without starting a second set, and leaves them running when it closes', async () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'xagent-shared-mcp-'));
    const home = mkdtempSync(path.join(os.tmpdir(), 'xagent-shared-mcp-home-'));
    const modelScript = path.join(workspace, 'script.json');
    writeFileSync(modelScript, JSON.stringify({ responses: [{ text: 'ok' }] }));
    writeMcpJson(workspace, { tiny: { command: process.execPath, args: [writeTinyServer(workspace, { marker: workspace })] } });
    const config = buildRunConfig(
      {
        cwd: workspace,
        modelScript,
        limits: DEFAULT_LIMITS,
        format: 'text',
        inspectPort: null,
        session: { continue: false },
        prompt: 'hi',
      },
      { ...process.env, XAGENT_HOME: home },
      createApiModel,
    );
    const stderr = new PassThrough().resume();

    const first = await prepareRun(config, { stderr });
    const manager = await first.mcp;
    await manager?.ready();
    for (let i = 0; i < 200 && processesWith(workspace).length < 2; i++) await sleep(20);
    const servers = processesWith(workspace);
    expect(servers.length).toBeGreaterThanOrEqual(2); // the server and the child it starts

    const second = await prepareRun(config, { stderr, sharedMcp: first.mcp });
    expect(second.mcp).toBe(first.mcp);
    // A task waits for the run's servers: had the second run started its own, they would be up now.
    const result = await second.runTask({
      prompt: 'hi',
      permissions: policyFor(config),
      signal: new AbortController().signal,
      renderer: { onEvent: () => undefined, finish: () => undefined },
    });
    expect(result.reason).toBe('final_answer');
    expect(processesWith(workspace)).toEqual(servers);
    // /context counts what a task is offered: the MCP tools too.
    expect(second.tools().names()).toContain('mcp__tiny__hello');
    const systemTokens = (text: string) => Number(/system prompt and tools: ~([\d,]+)/.exec(text)?.[1]?.replaceAll(',', ''));
    const counted = systemTokens(await contextCommands(config, second.session, () => second.tools()).context());
    expect(counted).toBeGreaterThan(systemTokens(await contextCommands(config, second.session).context()));
    await second.close();
    expect(processesWith(workspace)).toEqual(servers);

    await first.close();
    expect(processesWith(workspace)).toEqual([]);
  });
});
