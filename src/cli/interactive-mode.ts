import { partialAnswer, recordInterruption } from '../sessions/interruption.js';
import { openSessionForRun } from '../sessions/open-for-run.js';
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
  const observer = inspector ? { inspect: inspector.feed.inspect, onEvent: inspector.feed.onEvent } : undefined;
  const partial = partialAnswer();
  // A terminal that cannot move the cursor gets the plain line prompt; every other one the full UI.
  // Loaded here, not at the top: `xagent -p` must not pay for React and Ink.
  const repl =
    process.env.TERM === 'dumb'
      ? startInteractive(
          config,
          { input: process.stdin, output: process.stdout, errorOutput: process.stderr, terminal: true },
          {
            sessionId,
            messages: session.messages,
            initialPrompt,
            onStart: (prompt) => session.startTask(prompt),
            onEvent: (event) => {
              partial.onEvent(event);
              observer?.onEvent(event);
            },
            onResult: (result) => {
              if (result.reason === 'user_abort') recordInterruption({ dir: session.dir, messages: session.messages, partial: partial.text() });
              session.endTask(result);
            },
            ...(observer ? { inspect: observer.inspect } : {}),
          },
        )
      : (await import('../tui/run-tui.js')).startTui(config, {
          session,
          initialPrompt,
          ...(observer ? { observer } : {}),
          openSession: (resume) =>
            openSessionForRun({ home: config.home, workspace: config.workspace, modelId: config.modelId, ...(resume ? { resume } : {}) }),
        });
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
