// First, so that Ctrl-C during start-up already exits 130.
import './early-signals.js';
import { Command, CommanderError } from 'commander';
import { faultOf, UntrustedProjectError, UsageError } from '../errors/xagent-error.js';
import { exitCodeForError, USAGE_EXIT_CODE } from './exit-codes.js';
import { nearCommand } from './near-command.js';
import { exitWhenFlushed } from './exit-now.js';
import { printExitResult, type ExitReason } from './output/exit-result.js';
import { registerAcpCommand } from '../acp/command.js';
import { registerAgentsCommand } from './agents-command.js';
import { registerBatchCommand } from './batch-command.js';
import { registerInspectCommand } from './inspect-command.js';
import { registerMcpCommand } from './mcp-command.js';
import { registerPathsCommand } from './paths-command.js';
import { registerDiagramCommand } from './diagram-command.js';
import { registerRestateCommands } from './restate-command.js';
import { watchOutputStreams } from './output-closed.js';
import { addRunFlags, type RunFlags } from '../run/add-run-flags.js';
import { registerSandboxCommand } from './sandbox-command.js';
import { registerSessionsCommand } from './sessions-command.js';
import { registerRewindCommands } from './rewind-command.js';
import { packageVersion } from '../run/version.js';

function buildProgram(setExit: (code: number) => void, argv: readonly string[] = []): Command {
  const program = new Command()
    .name('xagent')
    .description('A coding agent whose loop is an explicit statechart.')
    .version(packageVersion())
    .argument('[prompt...]', 'the task (or read from stdin with -p)');
  addRunFlags(program, 'print').action(async (promptArgs: string[], raw: RunFlags) => {
    // With -p a lone word is a task as written; without, a near-miss of a command is a typo.
    const meant = raw.print
      ? null
      : nearCommand(
          promptArgs,
          program.commands.map((command) => command.name()),
        );
    if (meant)
      throw new UsageError(
        `unknown command "${promptArgs[0]}": did you mean "xagent ${meant}"? (A one-word task: xagent -p "${promptArgs[0]}")`,
      );
    const interactive = !raw.print && process.stdin.isTTY === true;
    // Loaded here, so that --version, --help and the other commands never load the engine.
    if (interactive) setExit(await (await import('./interactive-mode.js')).runInteractiveMode(promptArgs, raw));
    else setExit(await (await import('./print-mode.js')).runPrint(promptArgs, raw));
  });
  registerDiagramCommand(program);
  registerInspectCommand(program, setExit);
  registerPathsCommand(program, process.stdout, setExit);
  registerSessionsCommand(program, { stdout: process.stdout, stderr: process.stderr });
  registerSandboxCommand(program, setExit, { stdout: process.stdout, stderr: process.stderr });
  registerAgentsCommand(program, setExit, { stdout: process.stdout, stderr: process.stderr });
  registerMcpCommand(program, setExit, { stdout: process.stdout, stderr: process.stderr });
  registerAcpCommand(program, setExit);
  registerRewindCommands(program, setExit);
  registerBatchCommand(program, setExit);
  // `xagent -p wait` is a task that says "wait": after a leading -p, the task commands' words are words.
  if (!['-p', '--print'].includes(argv[2] ?? '')) registerRestateCommands(program, setExit);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  watchOutputStreams();
  let exitCode = 0;
  const program = buildProgram((code) => (exitCode = code), argv);
  program.exitOverride();
  program.configureOutput({ writeErr: (text) => process.stderr.write(text) });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      printExitResult(argv, { reason: 'usage_error', message: error.message.replace(/^error: /, ''), exitCode: USAGE_EXIT_CODE });
      return USAGE_EXIT_CODE;
    }
    const message = error instanceof Error ? error.message : String(error);
    printExitResult(argv, { reason: exitReasonOf(error), message, exitCode: exitCodeForError(error) });
    if (faultOf(error) !== 'internal') {
      process.stderr.write(`xagent: ${message}\n`);
      return exitCodeForError(error);
    }
    process.stderr.write(`xagent: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

/** The `reason` of an exit without a task result, for `-p --output-format json`. */
function exitReasonOf(error: unknown): ExitReason {
  if (error instanceof UntrustedProjectError) return 'untrusted_project';
  const fault = faultOf(error);
  return fault === 'internal' ? 'internal_error' : `${fault}_error`;
}

/**
 * Runs the CLI on this process's arguments and exits with its code once the output is written.
 * bin.ts calls it, from this ES module or from the compiled core (`-p`, see compiled-core.ts).
 */
export async function runCli(): Promise<void> {
  await exitWhenFlushed(await main(process.argv));
}
