import { splitInspectFlag, startRunInspector } from './inspect-command.js';
import { startInteractive } from './interactive.js';
import { createApiModel } from './model-factory.js';
import { openSession } from './open-session.js';
import { buildRunConfig, type RawOptions } from './run-config.js';

/** Interactive mode on a terminal; resolves with the exit code when the person leaves. */
export async function runInteractiveMode(args: string[], raw: RawOptions): Promise<number> {
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
      ...(inspector ? { observe: inspector.feed } : {}),
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
