#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { PERMISSION_MODES } from '../permissions/types.js';
import { UsageError, USAGE_EXIT_CODE } from './exit-codes.js';
import { createApiModel } from './model-factory.js';
import { parseChoice } from './parse-options.js';
import { DIAGRAM_FORMATS } from '../diagram/formats.js';
import { createTerminalPrompt } from '../permissions/index.js';
import { buildRunConfig, policyFor, type RawOptions } from './run-config.js';
import { registerInspectCommand, splitInspectFlag, startRunInspector } from './inspect-command.js';
import { exitCodeOf, rendererFor, runOneTask } from './run-print.js';
import { startInteractive } from './interactive.js';
import { SessionError } from '../sessions/errors.js';
import { openSessionForRun, type RunSession } from '../sessions/open-for-run.js';
import { registerSessionsCommand } from './sessions-command.js';
import { installAbortSignals } from './signals.js';
import { packageVersion } from './version.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The session a run works in (new, --resume or --continue); its warnings go to stderr. */
function openSession(config: ReturnType<typeof buildRunConfig>, raw: RawOptions): RunSession {
  const session = openSessionForRun({
    home: config.home,
    workspace: config.workspace,
    modelId: config.modelId,
    ...(raw.resume !== undefined ? { resume: raw.resume } : {}),
    continue: raw.continue === true,
  });
  for (const warning of session.warnings) process.stderr.write(`xagent: warning: ${warning}\n`);
  return session;
}

async function runPrint(args: string[], raw: RawOptions): Promise<number> {
  const config = buildRunConfig(raw, process.env, createApiModel);
  const { port: inspectPort, promptArgs } = splitInspectFlag(raw.inspect, args);
  let prompt = promptArgs.join(' ').trim();
  if (!prompt && !process.stdin.isTTY) prompt = (await readStdin()).trim();
  if (!prompt) throw new UsageError('no prompt: give it as an argument (xagent -p "task") or on stdin');
  // A person can answer `ask` only where both the keyboard and the screen are a terminal.
  const askPerson =
    process.stdin.isTTY && process.stderr.isTTY
      ? createTerminalPrompt({ input: process.stdin, output: process.stderr, workspace: config.workspace })
      : undefined;
  const session = openSession(config, raw);
  const sessionId = session.sessionId;
  const controller = new AbortController();
  const uninstall = installAbortSignals({ onAbort: () => controller.abort(), stderr: process.stderr });
  let inspector: Awaited<ReturnType<typeof startRunInspector>> | null = null;
  try {
    inspector =
      inspectPort === null ? null : await startRunInspector({ config, sessionId, prompt, port: inspectPort, stderr: process.stderr });
    session.startTask(prompt);
    const result = await runOneTask(
      config,
      {
        prompt,
        sessionId,
        messages: session.messages,
        permissions: policyFor(config, askPerson),
        signal: controller.signal,
        ...(inspector ? { inspect: inspector.feed.inspect, onEvent: inspector.feed.onEvent } : {}),
      },
      rendererFor(config, { stdout: process.stdout, stderr: process.stderr }),
    );
    session.endTask(result);
    session.release();
    uninstall();
    await inspector?.holdUntilInterrupted();
    return exitCodeOf(result);
  } finally {
    session.release();
    uninstall();
    await inspector?.server.close();
  }
}

async function runInteractiveMode(args: string[], raw: RawOptions): Promise<number> {
  const config = buildRunConfig(raw, process.env, createApiModel);
  const { port: inspectPort, promptArgs } = splitInspectFlag(raw.inspect, args);
  const session = openSession(config, raw);
  const sessionId = session.sessionId;
  const initialPrompt = promptArgs.join(' ');
  const inspector =
    inspectPort === null
      ? null
      : await startRunInspector({ config, sessionId, prompt: initialPrompt, port: inspectPort, stderr: process.stderr });
  const repl = startInteractive(
    config,
    { input: process.stdin, output: process.stdout, errorOutput: process.stderr, terminal: true },
    {
      sessionId,
      messages: session.messages,
      initialPrompt,
      onStart: (prompt) => session.startTask(prompt),
      onResult: (result) => session.endTask(result),
      ...(inspector ? { inspect: inspector.feed.inspect, onEvent: inspector.feed.onEvent } : {}),
    },
  );
  // A signal from outside (kill -INT, kill -TERM) does what Ctrl-C at the keyboard does.
  const onSignal = () => repl.interrupt();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await repl.done;
  } finally {
    session.release();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await inspector?.server.close();
  }
}

function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command()
    .name('xagent')
    .description('A coding agent whose loop is an explicit statechart.')
    .version(packageVersion())
    .argument('[prompt...]', 'the task (or read from stdin with -p)')
    .option('-p, --print', 'run one task and exit (non-interactive)')
    .option('--model <id>', 'model id (default: $ANTHROPIC_MODEL or a current Claude model)')
    .option('--max-turns <n>', 'model rounds per task', '8')
    .option('--max-tool-calls <n>', 'tool executions per task', '12')
    .option('--timeout <duration>', 'wall clock per task: 90000, 90s, 2m', '120s')
    .option('--output-format <format>', 'text, json or stream-json', 'text')
    .option('--permission-mode <mode>', `${PERMISSION_MODES.join(', ')} (default: settings, else default)`)
    .option('--allow <rule>', 'allow rule, repeatable: bash(npm test*), read_file, edit_file(src/**)', collect)
    .option('--deny <rule>', 'deny rule, repeatable', collect)
    .option('--cwd <dir>', 'workspace root; file tools never reach outside it')
    .option('--resume <session-id>', 'continue a recorded session')
    .option('--continue', 'continue the latest session in this workspace')
    .option('--inspect [port]', 'serve the live inspector on 127.0.0.1')
    .option('--model-script <file>', 'use a scripted model instead of the API')
    .action(async (promptArgs: string[], raw: RawOptions) => {
      const interactive = !raw.print && process.stdin.isTTY === true;
      setExit(interactive ? await runInteractiveMode(promptArgs, raw) : await runPrint(promptArgs, raw));
    });
  program
    .command('diagram')
    .description("the engine's statechart, generated from the machine")
    .option('--format <format>', DIAGRAM_FORMATS.join(', '), 'mermaid')
    .action(async (raw: { format: string }) => {
      const format = parseChoice(raw.format, DIAGRAM_FORMATS, '--format');
      // Loaded here so that a task run never pays for the diagram code and elkjs.
      const { renderDiagram } = await import('../diagram/render.js');
      const text = await renderDiagram(format);
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    });
  registerInspectCommand(program, setExit);
  registerSessionsCommand(program, { stdout: process.stdout, stderr: process.stderr });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => (exitCode = code));
  program.exitOverride();
  program.configureOutput({ writeErr: (text) => process.stderr.write(text) });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : USAGE_EXIT_CODE;
    if (error instanceof UsageError || error instanceof SessionError) {
      process.stderr.write(`xagent: ${error.message}\n`);
      return USAGE_EXIT_CODE;
    }
    process.stderr.write(`xagent: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

const code = await main(process.argv);
process.exitCode = code;
