#!/usr/bin/env node
/**
 * What the `xagent` command runs, built as a small CommonJS file (scripts/bundle-bin.ts): a `-p`
 * run never starts Node's ES module loader. `--version`, which scripts and installers call to check
 * an install, is answered here, before the CLI itself (commander and every command, ~130 kB) is
 * loaded and compiled. A `-p` run goes to the compiled core (src/startup/compiled-core.ts: the CLI
 * as one CommonJS file run through V8's code cache); anything else, and `-p` if the core is
 * missing, goes to main.ts as ES modules (the terminal UI, Ink, needs them), and so does
 * everything with XAGENT_FAST_START=0 (src/startup/fast-start.ts).
 */
// First, so that Ctrl-C during start-up already exits 130.
import './early-signals.js';
import { packageVersion } from '../run/version.js';
import { fastStart } from '../startup/fast-start.js';

/** The CLI as ES modules (a chunk of the ES build). */
const esCli = () => import('./main.js');

async function start(args: string[]): Promise<void> {
  const [first, ...rest] = args;
  if ((first === '--version' || first === '-V') && rest.length === 0) {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  // `xagent submit -p "task"` hands the task to a Restate worker: not a run, and not in the core.
  if (fastStart() && (args.includes('-p') || args.includes('--print')) && first !== 'submit') {
    // Imported here, not above: `--version` compiles nothing it does not need.
    const [{ loadCompiledCore }, { xagentHome }] = await Promise.all([
      import('../startup/compiled-core.js'),
      import('../sessions/layout.js'),
    ]);
    await (loadCompiledCore(new URL('./core.cjs', import.meta.url), xagentHome()) ?? (await esCli())).runCli();
    return;
  }
  await (await esCli()).runCli();
}

// No top-level await: this file is CommonJS. runCli ends the process itself; a failure to load is a crash.
start(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`xagent: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
