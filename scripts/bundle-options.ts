import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { chartFingerprint } from '../machines/chart-fingerprint.js';
import { sdkGlobalsPlugin } from './sdk-globals-plugin.js';

/**
 * Constants both builds define: the chart's fingerprint (machines/chart-fingerprint.ts), computed
 * here from the chart being bundled, so that a run does not walk and hash the chart at start.
 */
export const buildConstants = { XAGENT_CHART_FINGERPRINT: JSON.stringify(chartFingerprint()) };

/**
 * What both builds share (the ES chunks and the compiled core): Node 20, one bundle, linked source
 * maps, a metafile for the bundle tests, and minified whitespace and syntax. V8 parses every byte
 * of a file it loads: so the start-up chunks are ~half the size, ~7 ms less to compile before the
 * first request (bench/README.md); identifiers are kept, so stack traces still name our functions.
 * @example build({ ...sharedOptions(root), entryPoints: { ... }, format: 'esm' })
 */
export function sharedOptions(root: string): BuildOptions & { metafile: true } {
  return {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [sdkGlobalsPlugin(path.join(root, 'src/startup/sdk-globals.ts'))],
  };
}
