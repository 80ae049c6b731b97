import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { buildConstants, sharedOptions } from './bundle-options.js';

/** CommonJS's module wrapper around the core (as Module.wrap writes it); compiled-core.ts calls the function. */
const CORE_WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const CORE_WRAPPER_TAIL = '\n});';

/**
 * Packages the core requires from node_modules when a run needs them instead of carrying them:
 * the terminal UI's (never in a `-p` run) and the large lazily used ones (elkjs is 1.6 MB, the MCP
 * SDK brings zod and ajv). All ship CommonJS. Without a code cache, every byte the core carries is
 * parsed at start.
 */
const REQUIRED_AT_RUN_TIME = [
  'elkjs',
  '@modelcontextprotocol/sdk',
  'ink',
  'yoga-layout',
  'react',
  'react-devtools-core',
  'marked',
  'marked-terminal',
  // A diagram's PNG/PDF and a chart at a git ref load these from node_modules; bundled, esbuild cannot find its binary.
  'playwright-core',
  'esbuild',
];

/** The terminal UI (Ink: ES modules with top-level await) cannot be CommonJS; bin.ts never sends it here. */
const noTerminalUi: Plugin = {
  name: 'no-terminal-ui',
  setup(build) {
    // Its two entries: the UI (run-tui) and the session picker of `xagent -r` (session-picker).
    build.onResolve({ filter: /[\\/]tui[\\/](run-tui|session-picker)\.js$/ }, () => ({ path: 'tui', namespace: 'no-terminal-ui' }));
    build.onLoad({ filter: /.*/, namespace: 'no-terminal-ui' }, () => ({
      contents: [
        "const notHere = () => { throw new Error('the terminal UI is not part of the compiled core: run xagent without -p for it'); };",
        'export { notHere as startTui, notHere as pickSession, notHere as recentSessions };',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/** `xagent acp` never runs in the core either (bin.ts sends only `-p` here), so it does not carry the ACP SDK and zod. */
const noAcp: Plugin = {
  name: 'no-acp',
  setup(build) {
    build.onResolve({ filter: /serve\.js$/ }, (args) =>
      /[\\/]acp[\\/]command\.ts$/.test(args.importer) ? { path: 'acp-serve', namespace: 'no-acp' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-acp' }, () => ({
      contents: "export function serveAcp() { throw new Error('xagent acp is not part of the compiled core: run xagent acp without -p'); }",
      loader: 'js',
    }));
  },
};

/** Nor do the durable-task commands (serve --restate, submit, wait...): the core never carries the Restate SDK. */
const noRestate: Plugin = {
  name: 'no-restate',
  setup(build) {
    build.onResolve({ filter: /[\\/]restate[\\/]commands\.js$/ }, (args) =>
      /[\\/]cli[\\/]restate-command\.ts$/.test(args.importer) ? { path: 'restate-commands', namespace: 'no-restate' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-restate' }, () => ({
      contents: "throw new Error('the durable-task commands are not part of the compiled core: run them without -p');",
      loader: 'js',
    }));
  },
};

/**
 * Builds dist/bin/core.cjs: the CLI (src/cli/core.ts) but the terminal UI as one CommonJS file,
 * which bin.ts runs for `-p` through V8's code cache (src/startup/compiled-core.ts). Returns the first
 * 16 hex digits of its SHA-256, which names its cache: V8 checks only a script's length.
 * @example const hash = await buildCore(root);
 */
export async function buildCore(root: string): Promise<string> {
  const shared = sharedOptions(root);
  const result = await build({
    ...shared,
    entryPoints: { 'bin/core': 'src/cli/core.ts' },
    outdir: path.join(root, 'dist'),
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    // import() becomes require(): a vm.Script has no module loader of its own.
    supported: { 'dynamic-import': false },
    define: { ...buildConstants, 'process.env.NODE_ENV': '"production"', 'import.meta.url': '__xagentCoreUrl' },
    // The file is CommonJS's module wrapper already (a function expression), so the loader compiles
    // it as read: Module.wrap(source) would make a second copy of the ~1 MB source in the heap.
    banner: { js: `${CORE_WRAPPER_HEAD}var __xagentCoreUrl = require("node:url").pathToFileURL(__filename).href;` },
    footer: { js: CORE_WRAPPER_TAIL },
    // One byte a character in V8's heap: a single non-ASCII character would double the source's size.
    charset: 'ascii',
    external: REQUIRED_AT_RUN_TIME,
    plugins: [...(shared.plugins ?? []), noTerminalUi, noAcp, noRestate],
  });
  const code = readFileSync(path.join(root, 'dist/bin/core.cjs'), 'latin1');
  const wide = /[^\x00-\x7f]/.exec(code);
  if (wide)
    throw new Error(
      `dist/bin/core.cjs has a non-ASCII character at ${wide.index}: escape it in the source (${code.slice(wide.index - 60, wide.index + 20)})`,
    );
  // Read by test/cli/bundle.test.ts; not shipped.
  writeFileSync(path.join(root, 'dist/bundle-core-meta.json'), JSON.stringify(result.metafile));
  return createHash('sha256').update(code).digest('hex').slice(0, 16);
}
