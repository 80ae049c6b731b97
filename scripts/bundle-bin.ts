import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { buildConstants, sharedOptions } from './bundle-options.js';

/** bin.ts's `import('./main.js')`: the CLI's ES entry, built by scripts/bundle.ts as dist/bin/chunks/main.js. */
const esMain: Plugin = {
  name: 'es-main',
  setup(build) {
    build.onResolve({ filter: /^\.\/main\.js$/ }, (args) =>
      /[\\/]cli[\\/]bin\.ts$/.test(args.importer) ? { path: './chunks/main.js', external: true } : undefined,
    );
  },
};

/**
 * Builds dist/bin/xagent.js, what the `xagent` command runs, as CommonJS (dist/bin/package.json
 * says so, dist/bin/chunks/package.json keeps the ES chunks ES): an ES entry started Node's ES
 * module loader (~1 MB, and resolving seven chunks) before a `-p` run even reached the compiled
 * core. The core's loader is in it, initialised only on that path; `--version` runs neither.
 * Returns the metafile (bundle.ts adds it to dist/bundle-meta.json).
 * @example const meta = await buildBin(root, coreHash);
 */
export async function buildBin(root: string, coreHash: string): Promise<Metafile> {
  const outdir = path.join(root, 'dist/bin');
  writeFileSync(path.join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  writeFileSync(path.join(outdir, 'chunks/package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  const shared = sharedOptions(root);
  const result = await build({
    ...shared,
    entryPoints: { 'bin/xagent': 'src/cli/bin.ts' },
    outdir: path.join(root, 'dist'),
    format: 'cjs',
    define: {
      ...buildConstants,
      XAGENT_CORE_HASH: JSON.stringify(coreHash),
      'import.meta.url': '__xagentBinUrl',
    },
    banner: { js: 'var __xagentBinUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [...(shared.plugins ?? []), esMain],
  });
  chmodSync(path.join(outdir, 'xagent.js'), 0o755);
  return result.metafile;
}
