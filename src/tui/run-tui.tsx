import { render } from 'ink';
import type { RunConfig } from '../cli/run-config.js';
import { visible } from '../permissions/request-view.js';
import { lastPrompt, resumedLine } from '../sessions/interruption.js';
import type { RunSession } from '../sessions/open-for-run.js';
import { App } from './app.js';
import { registerBuiltinCommands } from './builtin-commands.js';
import { runCommand, type CommandContext } from './commands.js';
import { TuiController, type TaskObserver } from './controller.js';
import { markdownReady } from './markdown-loader.js';
import { TuiStore } from './store.js';

export interface TuiOptions {
  session: RunSession;
  /** A new session (no id) or the one `resume` names: for /clear and /resume. */
  openSession(resume?: string): RunSession;
  /** A task to run first, as if typed (`xagent "fix the build"`). */
  initialPrompt?: string;
  /** Sees every task (the live inspector of `--inspect`). */
  observer?: TaskObserver;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

export interface TuiHandle {
  /** Resolves with the exit code when the person leaves. */
  done: Promise<number>;
  /** A signal from outside (kill -INT): stop the running task, else leave. */
  interrupt(): void;
}

/**
 * The interactive terminal UI (Ink). Loaded with a dynamic import by the interactive mode only,
 * so `xagent -p` never loads React, Ink or the markdown renderer.
 * @example const tui = startTui(config, { session, openSession }); process.exitCode = await tui.done;
 */
export function startTui(config: RunConfig, options: TuiOptions): TuiHandle {
  const stdout = options.stdout ?? process.stdout;
  const store = new TuiStore({ sessionId: options.session.sessionId, modelId: config.modelId, permissionMode: config.permissionMode });
  const controller = new TuiController(config, store, options.session);
  if (options.observer) controller.observers.push(options.observer);
  registerBuiltinCommands({ openSession: options.openSession });
  const history: string[] = [];

  let leave: () => void = () => undefined;
  const left = new Promise<void>((resolve) => (leave = resolve));
  const context: CommandContext = { controller, print: (text, tone) => store.note(text, tone), exit: () => leave() };

  const submit = (text: string) => {
    if (history.at(-1) !== text) history.push(text);
    if (text.startsWith('/')) {
      store.add({ kind: 'user', text });
      void runCommand(text, context);
      return;
    }
    if (controller.busy) {
      store.update({ hint: 'A task is running: wait for it, or Esc to stop it first.' });
      return;
    }
    void markdownReady.then(() => controller.runTask(text));
  };

  store.note(`xagent · ${config.modelId} · ${config.workspace}\nType a task; /help lists commands. Esc stops a task; Ctrl-D leaves.`, 'dim');
  const { session } = options;
  if (!session.isNew) {
    store.note(visible(resumedLine(session.sessionId, session.messages)));
    const prompt = lastPrompt(session.messages);
    const answer = [...session.messages].reverse().find((m) => m.role === 'assistant');
    const text = answer?.content.flatMap((b) => (b.type === 'text' ? [(b as { text: string }).text] : [])).join('') ?? '';
    if (prompt) store.add({ kind: 'user', text: prompt });
    if (text) store.add({ kind: 'assistant', text });
  }

  const stdin = options.stdin ?? process.stdin;
  // Raw at once, not when Ink's input hook mounts: keys typed meanwhile must not be echoed and cooked.
  if (stdin.isTTY) stdin.setRawMode(true);
  const ink = render(<App store={store} history={history} onSubmit={submit} onInterrupt={() => controller.interrupt()} onLeave={() => leave()} />, {
    exitOnCtrlC: false,
    stdout,
    stdin,
  });
  if (options.initialPrompt?.trim()) submit(options.initialPrompt.trim());

  const done = (async () => {
    await left;
    await controller.close();
    ink.unmount();
    await ink.waitUntilExit();
    stdout.write(`Resume this session with: xagent --resume ${controller.session.sessionId}\n`);
    return 0;
  })();
  return {
    done,
    interrupt: () => {
      if (!controller.interrupt()) leave();
    },
  };
}
