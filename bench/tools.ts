import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { ToolCall } from '../machines/types.js';
import { globTool } from '../src/tools/builtin/glob.js';
import { createGrepTool } from '../src/tools/builtin/grep.js';
import { findOnPath } from '../src/tools/grep-engine.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { repoRoot } from './child.js';
import { interleave, summarize } from './stats.js';
import type { Row } from './table.js';

export const GREP_TARGET_RATIO = 1.5;

// The same flags the grep tool gives ripgrep, so both search the same files (no ignore files,
// hidden files included, nested node_modules and .git skipped).
const RG_COMMON = ['--no-config', '--no-ignore', '--hidden', '--glob', '!.git', '--glob', '!node_modules'];

function runRg(rg: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(rg, [...RG_COMMON, ...args], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) lines++;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`rg ${args.join(' ')} exited ${code}`));
      if (lines === 0) return reject(new Error(`rg ${args.join(' ')} found nothing`));
      resolve(performance.now() - start);
    });
  });
}

async function timeTool(registry: ToolRegistry, call: ToolCall, workspace: string): Promise<number> {
  const start = performance.now();
  const validation = registry.validate(call);
  if (!validation.ok) throw new Error(validation.error.message);
  const result = await registry.execute(call, { signal: new AbortController().signal, workspace });
  if (result.isError) throw new Error(`${call.name} failed: ${result.content}`);
  return performance.now() - start;
}

/**
 * Benchmark 5: the `grep` tool (ripgrep engine, and the JavaScript engine) and the `glob` tool on
 * a large tree, each against `rg` run directly on the same tree with the same file selection.
 * @example const rows = await toolRows({ runs: 7, tree: 'node_modules', pattern: 'createMachine', glob: '**\/*.d.ts' });
 */
export async function toolRows(options: { runs: number; tree?: string; pattern?: string; glob?: string }): Promise<Row[]> {
  const pattern = options.pattern ?? 'createMachine';
  const glob = options.glob ?? '**/*.d.ts';
  const rg = await findOnPath('rg');
  const names = ['5. grep tool (ripgrep engine) vs rg', '5. grep tool (JS engine) vs rg', '5. glob tool vs rg --files'];
  if (!rg) return names.map((name) => ({ name, unit: 'ms', value: { median: 0, min: 0, max: 0, n: 0 }, skipped: 'rg not on PATH' }));
  const workspace = realpathSync(path.resolve(repoRoot, options.tree ?? 'node_modules'));
  const withRipgrep = new ToolRegistry([createGrepTool({ engine: 'ripgrep' })]);
  const withJs = new ToolRegistry([createGrepTool({ engine: 'js' })]);
  const globs = new ToolRegistry([globTool]);
  const grepCall = { id: 'bench', name: 'grep', input: { pattern } };
  const globCall = { id: 'bench', name: 'glob', input: { pattern: glob } };
  const rgGrep = () => runRg(rg, ['--line-number', '--regexp', pattern, '.'], workspace);
  // glob's pattern applies to the path below the root; rg -g with a `/` does the same.
  const rgFiles = () => runRg(rg, ['--files', '--glob', glob, '.'], workspace);

  const pairs = [
    {
      name: names[0]!,
      samples: await interleave(options.runs, rgGrep, () => timeTool(withRipgrep, grepCall, workspace)),
      base: 'rg',
      target: true,
    },
    {
      name: names[1]!,
      samples: await interleave(options.runs, rgGrep, () => timeTool(withJs, grepCall, workspace)),
      base: 'rg',
      target: false,
    },
    {
      name: names[2]!,
      samples: await interleave(options.runs, rgFiles, () => timeTool(globs, globCall, workspace)),
      base: 'rg --files',
      target: false,
    },
  ];
  return pairs.map(({ name, samples, base, target }) => {
    const value = summarize(samples.subject);
    const baseline = summarize(samples.baseline);
    return {
      name,
      unit: 'ms',
      value,
      baseline: { name: base, value: baseline },
      ...(target ? { target: `≤ ${GREP_TARGET_RATIO}× rg`, met: value.median <= GREP_TARGET_RATIO * baseline.median } : {}),
    };
  });
}
