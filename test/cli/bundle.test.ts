import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/run-cli.js';

// esbuild's metafile of the CLI bundle (npm run build writes it next to the bundle).
interface Metafile {
  outputs: Record<
    string,
    { entryPoint?: string; inputs: Record<string, unknown>; imports: Array<{ path: string; kind: string; external?: boolean }> }
  >;
}
const metaPath = fileURLToPath(new URL('../../dist/bundle-meta.json', import.meta.url));
const coreMetaPath = fileURLToPath(new URL('../../dist/bundle-core-meta.json', import.meta.url));
/** Preloaded (`node -r`): prints the modules Node loaded, one a line, on stderr at exit. */
const LOADED_AT_EXIT = "process.on('exit', () => process.stderr.write(process.moduleLoadList.join('\\n')));\n";

/** Every input file that Node compiles before the entry runs: the entry chunk and its static imports. */
function eagerInputs(meta: Metafile, entryPoint = 'src/cli/main.ts'): string[] {
  const entry = Object.keys(meta.outputs).find((out) => meta.outputs[out]!.entryPoint === entryPoint);
  if (!entry) throw new Error(`no output for ${entryPoint} in the metafile`);
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const imp of meta.outputs[out]!.imports) if (!imp.external && imp.kind === 'import-statement') visit(imp.path);
  };
  visit(entry);
  return [...seen].flatMap((out) => Object.keys(meta.outputs[out]!.inputs));
}

describe('the CLI bundle', () => {
  it.skipIf(process.env.XAGENT_TEST_CLI)('is what the tests spawn, and what package.json bin names', () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(fileURLToPath(new URL(`../../${pkg.bin.xagent}`, import.meta.url))).toBe(CLI);
    expect(existsSync(CLI)).toBe(true);
  });

  it('answers --version from a tiny CommonJS entry that loads neither commander, the CLI nor the ES module loader before it', () => {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Metafile;
    const entry = Object.keys(meta.outputs).find((out) => meta.outputs[out]!.entryPoint === 'src/cli/bin.ts');
    expect(entry).toBe('dist/bin/xagent.js');
    expect(Object.keys(meta.outputs[entry!]!.inputs).sort()).toEqual([
      'src/cli/bin.ts',
      'src/cli/early-signals.ts',
      // What Ctrl-C during start-up prints for -p --output-format json; it imports nothing.
      'src/cli/output/exit-result.ts',
      // The compiled core's loader and the home it reads the code cache from: initialised on the -p path only.
      'src/errors/xagent-error.ts',
      'src/run/version.ts',
      'src/sessions/errors.ts',
      'src/sessions/layout.ts',
      // The start-up switch (XAGENT_FAST_START), one function.
      'src/startup/compiled-core.ts',
      'src/startup/fast-start.ts',
      'src/system/atomic-write-sync.ts',
    ]);
    // The rest of the CLI is the ES build's, imported only when a run needs it.
    expect(meta.outputs[entry!]!.imports.filter((imp) => !imp.path.startsWith('node:'))).toEqual([
      { path: './chunks/main.js', kind: 'dynamic-import', external: true },
    ]);
    const type = (dir: string) =>
      (JSON.parse(readFileSync(fileURLToPath(new URL(`../../dist/${dir}/package.json`, import.meta.url)), 'utf8')) as { type: string })
        .type;
    expect([type('bin'), type('bin/chunks')]).toEqual(['commonjs', 'module']);
    // What Node loaded for --version: no ES module loader, no vm (the core's loader), no crypto.
    const preload = path.join(mkdtempSync(path.join(os.tmpdir(), 'xagent-loaded-')), 'loaded.cjs');
    writeFileSync(preload, LOADED_AT_EXIT);
    const run = spawnSync(process.execPath, ['-r', preload, CLI, '--version'], { encoding: 'utf8' });
    rmSync(path.dirname(preload), { recursive: true, force: true });
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const loaded = run.stderr.split('\n');
    expect(loaded.filter((name) => /esm\/loader|^NativeModule (vm|crypto)$/.test(name))).toEqual([]);
  });

  it('compiles the CLI for -p runs into one CommonJS core without the terminal UI, elkjs, the MCP SDK, esbuild or playwright', () => {
    const core = JSON.parse(readFileSync(coreMetaPath, 'utf8')) as Metafile;
    expect(Object.keys(core.outputs).filter((out) => out.endsWith('.cjs'))).toEqual(['dist/bin/core.cjs']);
    const inputs = Object.keys(core.outputs['dist/bin/core.cjs']!.inputs);
    expect(inputs).toContain('src/cli/main.ts');
    expect(inputs).toContain('src/engine/query.ts');
    expect(inputs.some((input) => input.includes('node_modules/@anthropic-ai/sdk/'))).toBe(true);
    // Required from node_modules when a run needs them, or (the terminal UI) never in a -p run.
    const left = [
      /node_modules\/(ink|react|react-reconciler|yoga-layout|elkjs|@modelcontextprotocol|@restatedev|esbuild|playwright-core)\//,
      /^src\/tui\//,
      /^src\/restate\//,
    ];
    expect(inputs.filter((input) => left.some((pattern) => pattern.test(input)))).toEqual([]);
  });

  it('loads the engine, the SDK, the inspector server, elkjs, a terminal UI and MCP only through import()', () => {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Metafile;
    const eager = eagerInputs(meta);
    expect(eager).toContain('src/cli/main.ts');
    expect(eager.some((input) => input.includes('node_modules/commander/'))).toBe(true);
    const lazy = [
      /^src\/engine\/query\.ts$/,
      /^machines\/query-engine\.ts$/,
      /node_modules\/xstate\//,
      /node_modules\/@anthropic-ai\/sdk\//,
      /node_modules\/elkjs\//,
      /node_modules\/(ink|react|react-reconciler|yoga-layout)\//,
      /node_modules\/@modelcontextprotocol\//,
      /^src\/mcp\//,
      /^src\/cli\/mcp-list\.ts$/,
      /^src\/inspector\/server\.ts$/,
      /^src\/diagram\/(render|layout)\.ts$/,
      /^src\/model\/anthropic\.ts$/,
      /node_modules\/@restatedev\//,
      /^src\/restate\//,
    ];
    expect(eager.filter((input) => lazy.some((pattern) => pattern.test(input)))).toEqual([]);
  });

  it('bundles the library as dist/lib/index.js (exports["."]), loading the SDK, the inspector, elkjs, a terminal UI and MCP only through import()', () => {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Metafile;
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
      exports: { '.': { import: string; types: string } };
    };
    expect(Object.keys(meta.outputs).find((out) => meta.outputs[out]!.entryPoint === 'src/lib/index.ts')).toBe('dist/lib/index.js');
    expect(pkg.exports['.']).toEqual({ types: './dist/src/lib/index.d.ts', import: './dist/lib/index.js' });
    const eager = eagerInputs(meta, 'src/lib/index.ts');
    expect(eager).toContain('src/run/prepare-run.ts');
    expect(eager.some((input) => input.includes('node_modules/commander/'))).toBe(false);
    const lazy = [
      /node_modules\/@anthropic-ai\/sdk\//,
      /node_modules\/elkjs\//,
      /node_modules\/(ink|react|react-reconciler|yoga-layout)\//,
      /node_modules\/@modelcontextprotocol\//,
      /^src\/inspector\/server\.ts$/,
      /^src\/model\/anthropic\.ts$/,
      // submit() and wait() talk to the Restate ingress over HTTP: the SDK is the worker's.
      /node_modules\/@restatedev\//,
    ];
    expect(eager.filter((input) => lazy.some((pattern) => pattern.test(input)))).toEqual([]);
  });
});
