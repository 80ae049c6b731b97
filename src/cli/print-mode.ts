import { createTerminalPrompt } from '../permissions/index.js';
import { UsageError } from './exit-codes.js';
import { splitInspectFlag, startRunInspector } from './inspect-command.js';
import { createApiModel } from './model-factory.js';
import { openSession } from './open-session.js';
import { buildRunConfig, policyFor, type RawOptions } from './run-config.js';
import { exitCodeOf, rendererFor, runOneTask } from './run-print.js';
import { onOutputClosed } from './output-closed.js';
import { installAbortSignals } from './signals.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `xagent -p`: one task, rendered in the chosen output format; resolves with the exit code. */
export async function runPrint(args: string[], raw: RawOptions): Promise<number> {
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
  const uninstallSignals = installAbortSignals({ onAbort: () => controller.abort(), stderr: process.stderr });
  const stopWatchingOutput = onOutputClosed(() => controller.abort());
  const uninstall = () => {
    uninstallSignals();
    stopWatchingOutput();
  };
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
        ...(inspector ? { observe: inspector.feed } : {}),
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
