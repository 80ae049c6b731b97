// First, so that Ctrl-C during start-up already exits 130.
import './early-signals.js';
import { Command, CommanderError } from 'commander';
import { DIAGRAM_FORMATS } from '../diagram/formats.js';
import { PERMISSION_MODES } from '../permissions/types.js';
import { faultOf, UsageError } from '../errors/xagent-error.js';
import { exitCodeForError, USAGE_EXIT_CODE } from './exit-codes.js';
import { nearCommand } from './near-command.js';
import { exitWhenFlushed } from './exit-now.js';
import { registerAcpCommand } from '../acp/command.js';
import { registerAgentsCommand } from './agents-command.js';
import { registerBatchCommand } from './batch-command.js';
import { registerInspectCommand } from './inspect-command.js';
import { registerMcpCommand } from './mcp-command.js';
import { parseChoice } from '../run/parse-options.js';
import { registerPathsCommand } from './paths-command.js';
import { registerRestateCommands } from './restate-command.js';
import { watchOutputStreams } from './output-closed.js';
import { FLAG_DEFAULTS } from './flag-defaults.js';
import type { RawOptions } from '../run/run-flags.js';
import { registerSandboxCommand } from './sandbox-command.js';
import { registerSessionsCommand } from './sessions-command.js';
import { registerRewindCommands } from './rewind-command.js';
import { packageVersion } from '../run/version.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

function buildProgram(setExit: (code: number) => void, argv: readonly string[] = []): Command {
  const program = new Command()
    .name('xagent')
    .description('A coding agent whose loop is an explicit statechart.')
    .version(packageVersion())
    .argument('[prompt...]', 'the task (or read from stdin with -p)')
    .option('-p, --print', 'run one task and exit (non-interactive)')
    .option('--model <id>', 'model id (default: $ANTHROPIC_MODEL or a current Claude model)')
    .option('--max-turns <n>', `model rounds per task (default with -p: ${FLAG_DEFAULTS.maxTurns}; interactive: no limit)`)
    .option('--max-tool-calls <n>', `tool executions per task (default with -p: ${FLAG_DEFAULTS.maxToolCalls}; interactive: no limit)`)
    .option(
      '--timeout <duration>',
      `time per task, waiting for you excluded: 90000, 90s, 2m (default with -p: ${FLAG_DEFAULTS.timeout}; interactive: no limit)`,
    )
    .option('--output-format <format>', 'text, json or stream-json', 'text')
    .option('--permission-mode <mode>', `${PERMISSION_MODES.join(', ')} (default: settings, else default)`)
    .option('--allow <rule>', 'allow rule, repeatable: bash(npm test*), read_file, edit_file(src/**)', collect)
    .option('--deny <rule>', 'deny rule, repeatable', collect)
    .option('--allowedTools <rules>', 'Claude Code\'s form: allow rules, comma- or space-separated: "Bash(git log:*),Read"', collect)
    .option('--disallowedTools <rules>', "Claude Code's form: deny rules, comma- or space-separated", collect)
    .option('--system-prompt <text>', 'replace the system prompt')
    .option('--append-system-prompt <text>', 'add text at the end of the system prompt')
    .option('--cwd <dir>', 'workspace root; file tools never reach outside it')
    .option('-r, --resume <session-id>', 'continue a recorded session')
    .option('-c, --continue', 'continue the latest session in this workspace')
    .option('--fork-session', 'with --resume or --continue: continue in a new session forked from it (the old one is untouched)')
    .option('--inspect [port]', 'serve the live inspector on 127.0.0.1')
    .option('--model-script <file>', 'use a scripted model instead of the API')
    .option('--sandbox', 'run bash inside an OS sandbox (bubblewrap); settings: "sandbox": {"enabled": true}')
    .option('--no-sandbox', 'run bash without the sandbox, whatever the settings say')
    .option('--trust', "use this workspace's project MCP servers, hooks and allow rules without asking (env XAGENT_TRUST=1)")
    .option('--max-thinking-tokens <n>', 'extended thinking budget, >= 1024 (default: $MAX_THINKING_TOKENS, else 0 = off)')
    .option('--context-window <tokens>', "context window for compaction (default: $XAGENT_CONTEXT_WINDOW, else the model's)")
    .action(async (promptArgs: string[], raw: RawOptions) => {
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
  program
    .command('diagram')
    .description("the engine's statechart, generated from the machine")
    .option('--format <format>', DIAGRAM_FORMATS.join(', '), 'mermaid')
    .option('--from-sessions', 'a heat map: how often each transition was taken in the recorded sessions')
    .option('--since <date>', 'with --from-sessions: only steps from this date on (2026-11-30)')
    .action(async (raw: { format: string; fromSessions?: boolean; since?: string }) => {
      const format = parseChoice(raw.format, DIAGRAM_FORMATS, '--format');
      if (raw.since !== undefined && !raw.fromSessions) throw new UsageError('--since needs --from-sessions');
      if (raw.fromSessions) {
        const { diagramFromSessions } = await import('./diagram-sessions.js');
        await diagramFromSessions({ format, since: raw.since, stdout: process.stdout, stderr: process.stderr });
        return;
      }
      // Loaded here so that a task run never pays for the diagram code and elkjs.
      const { renderDiagram } = await import('../diagram/render.js');
      const text = await renderDiagram(format);
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    });
  registerInspectCommand(program, setExit);
  registerPathsCommand(program, process.stdout);
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
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
    if (faultOf(error) !== 'internal') {
      process.stderr.write(`xagent: ${(error as Error).message}\n`);
      return exitCodeForError(error);
    }
    process.stderr.write(`xagent: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

/**
 * Runs the CLI on this process's arguments and exits with its code once the output is written.
 * bin.ts calls it, from this ES module or from the compiled core (`-p`, see compiled-core.ts).
 */
export async function runCli(): Promise<void> {
  await exitWhenFlushed(await main(process.argv));
}
