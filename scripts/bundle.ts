/**
 * Bundles the CLI and the library into one entry file each plus lazily loaded chunks they share
 * (`npm run build` runs it after tsc).
 * Node then reads a few large files instead of resolving and compiling hundreds of small ESM
 * modules from dist/ and node_modules on every start. Parts only some runs need (the SDK, the
 * inspector server, elkjs, a terminal UI, MCP) stay behind `import()` and so in their own chunks.
 * A `-p` run takes another road: dist/bin/core.cjs (bundle-core.ts), through V8's code cache.
 * @example node dist/scripts/bundle.js   # writes dist/bin/xagent.js, dist/bin/core.cjs, dist/lib/index.js, dist/bin/chunks/*, dist/bundle-meta.json
 */
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBin } from './bundle-bin.js';
import { buildCore } from './bundle-core.js';
import { buildConstants, sharedOptions } from './bundle-options.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root, from dist/scripts/ (compiled) or scripts/ (source). */
const root = path.resolve(here, path.basename(path.dirname(here)) === 'dist' ? '../..' : '..');
const outdir = path.join(root, 'dist');

rmSync(path.join(outdir, 'bin'), { recursive: true, force: true });
rmSync(path.join(outdir, 'lib'), { recursive: true, force: true });
const REQUIRE_BANNER =
  "import { createRequire as __xagentCreateRequire } from 'node:module'; const require = __xagentCreateRequire(import.meta.url);";

// First the compiled core for `-p` runs: the ES build below names its code cache by its hash.
const coreHash = await buildCore(root);

const result = await build({
  ...sharedOptions(root),
  // The CLI's ES entry (dist/bin/xagent.js, bundle-bin.ts, imports it) and the library,
  // package.json's `exports["."]` (its types: dist/src/lib/index.d.ts, from tsc).
  entryPoints: { 'bin/chunks/main': 'src/cli/main.ts', 'lib/index': 'src/lib/index.ts' },
  outdir,
  chunkNames: 'bin/chunks/[name]-[hash]',
  splitting: true,
  format: 'esm',
  // Bundled CommonJS (commander) calls require() for Node's built-ins; an ES
  // module has none, so each chunk gets one made for its own URL.
  // (Dropped again below from the chunks that never call it.)
  banner: { js: REQUIRE_BANNER },
  // React (a terminal UI) picks its production build from this; nothing else we bundle reads it.
  define: { ...buildConstants, 'process.env.NODE_ENV': '"production"', XAGENT_CORE_HASH: JSON.stringify(coreHash) },
  // Ink imports its devtools bridge only when DEV=true; the package is not installed.
  // playwright-core (PNG and PDF diagrams) and esbuild (a chart at a git ref) are loaded from
  // node_modules when a diagram needs them: they find their own files there, and a run never loads them.
  external: ['react-devtools-core', 'playwright-core', 'esbuild'],
});
// Most chunks never call require(): they lose the banner (a createRequire each, ~40 µs per chunk
// at start-up). The line stays, empty, so the source maps still line up.
for (const output of Object.keys(result.metafile.outputs).filter((file) => file.endsWith('.js'))) {
  const file = path.join(root, output);
  const code = readFileSync(file, 'utf8');
  const rest = code.replace(REQUIRE_BANNER, '');
  if (!/\brequire\b/.test(rest)) writeFileSync(file, rest);
}
const bin = await buildBin(root, coreHash);
// Read by test/cli/bundle.test.ts (which chunks the entry loads eagerly); not shipped.
const meta = { inputs: { ...result.metafile.inputs, ...bin.inputs }, outputs: { ...result.metafile.outputs, ...bin.outputs } };
writeFileSync(path.join(root, 'dist/bundle-meta.json'), JSON.stringify(meta));
