import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { chartGraph, type ChartGraph } from '../../machines/chart-graph.js';
import { UsageError } from '../errors/xagent-error.js';

/**
 * A chart from elsewhere, for `xagent diagram --diff`: a chart JSON file (`xagent diagram --format
 * json`), or `machines/` as committed at a git ref, compiled and read with this xagent's own
 * `chartGraph`, so both sides get their ids from the same code.
 */

/** A chart JSON file, checked to be one. */
export function chartFromFile(file: string): ChartGraph {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--diff: cannot read ${file} as a chart: ${error instanceof Error ? error.message : String(error)}`);
  }
  const graph = parsed as Partial<ChartGraph>;
  if (typeof graph?.id !== 'string' || !Array.isArray(graph.nodes) || !Array.isArray(graph.edges))
    throw new UsageError(`--diff: ${file} is not a chart (write one with xagent diagram --format json)`);
  return { fingerprint: '', ...graph } as ChartGraph;
}

function git(cwd: string, args: string[]): Buffer {
  try {
    return execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new UsageError(`--diff: git ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`);
  }
}

/** The node_modules this xagent resolves xstate from: the compiled chart uses the same. */
function nodeModules(): string {
  const resolved = createRequire(import.meta.url).resolve('xstate');
  return resolved.slice(0, resolved.lastIndexOf(`${path.sep}node_modules${path.sep}`) + `${path.sep}node_modules`.length);
}

/**
 * The chart at a git ref of the repository holding `cwd`: its `machines/` is extracted, bundled with
 * esbuild (a development dependency, loaded only here) and its `queryEngine` read.
 * @example const before = await chartAtRef('main', process.cwd());
 */
export async function chartAtRef(ref: string, cwd: string): Promise<ChartGraph> {
  const top = git(cwd, ['rev-parse', '--show-toplevel']).toString().trim();
  const commit = git(top, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    .toString()
    .trim();
  const dir = mkdtempSync(path.join(tmpdir(), 'xagent-chart-'));
  try {
    const tar = git(top, ['archive', '--format=tar', commit, 'machines']);
    writeFileSync(path.join(dir, 'machines.tar'), tar);
    execFileSync('tar', ['-xf', 'machines.tar'], { cwd: dir });
    const entry = path.join(dir, 'machines', 'query-engine.ts');
    if (!existsSync(entry)) throw new UsageError(`--diff: ${ref} has no machines/query-engine.ts`);
    let esbuild: typeof import('esbuild');
    try {
      esbuild = await import('esbuild');
    } catch {
      throw new UsageError(
        '--diff <git ref> compiles that version of machines/ with esbuild: npm install esbuild (or diff two chart JSON files)',
      );
    }
    const out = path.join(dir, 'chart.mjs');
    await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: out,
      nodePaths: [nodeModules()],
      logLevel: 'silent',
    });
    const module = (await import(pathToFileURL(out).href)) as { queryEngine?: AnyStateMachine };
    if (!module.queryEngine) throw new UsageError(`--diff: machines/query-engine.ts at ${ref} exports no queryEngine`);
    return chartGraph(module.queryEngine);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
