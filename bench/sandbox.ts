import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSandbox, findBwrap, SandboxUnavailableError } from '../src/sandbox/index.js';
import { createBashTool } from '../src/tools/builtin/bash.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { interleave, summarize } from './stats.js';
import type { Row } from './table.js';

export const SANDBOX_TARGET_MS = 50;

async function timeCall(registry: ToolRegistry, workspace: string): Promise<number> {
  const start = performance.now();
  const result = await registry.execute(
    { id: 'bench', name: 'bash', input: { command: 'true' } },
    { signal: new AbortController().signal, workspace },
  );
  if (result.isError) throw new Error(`bash failed: ${result.content}`);
  return performance.now() - start;
}

/**
 * Benchmark 7: one `bash` tool call (`true`) inside the sandbox against the same call without it,
 * through the registry as the engine runs it; and the sandbox's cost per call, pair by pair.
 * @example const rows = await sandboxRows({ runs: 15 });
 */
export async function sandboxRows(options: { runs: number }): Promise<Row[]> {
  const callName = '9. bash tool call, sandboxed vs plain';
  const costName = '9. sandbox cost per bash call (sandboxed − plain)';
  try {
    findBwrap(process.env);
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    return [callName, costName].map((name) => ({
      name,
      unit: 'ms',
      value: { median: 0, min: 0, max: 0, n: 0 },
      skipped: 'bwrap not on PATH',
    }));
  }
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-bench-sandbox-')));
  try {
    const sandbox = createSandbox({
      settings: { network: false, hide: [] },
      workspace: root,
      xagentHome: path.join(root, '.xagent-home'),
      env: process.env,
    });
    const plain = new ToolRegistry([createBashTool()]);
    const boxed = new ToolRegistry([createBashTool({ sandbox })]);
    const samples = await interleave(
      options.runs,
      () => timeCall(plain, root),
      () => timeCall(boxed, root),
    );
    const cost = summarize(samples.subject.map((ms, i) => ms - (samples.baseline[i] ?? ms)));
    return [
      {
        name: callName,
        unit: 'ms',
        value: summarize(samples.subject),
        baseline: { name: 'plain bash call', value: summarize(samples.baseline) },
      },
      { name: costName, unit: 'ms', value: cost, target: `< ${SANDBOX_TARGET_MS} ms`, met: cost.median < SANDBOX_TARGET_MS },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
