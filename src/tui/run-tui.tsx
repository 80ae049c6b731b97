import { render } from 'ink';
import type { PreparedRun } from '../run/prepare-run.js';
import { App } from './app.js';
import { registerContextCommands } from './context-commands.js';
import { registerBuiltinCommands } from './builtin-commands.js';
import { registerAgentsCommand } from './agents-command.js';
import { registerRewindCommand } from './rewind-command.js';
import { registerConfigCommands } from './config-command.js';
import { findCommand, runCommand, type CommandContext } from './commands.js';
import { TuiController } from './controller.js';
import { markdownReady } from './markdown-loader.js';
import { showResumed } from './resumed-exchanges.js';
import { TuiStore } from './store.js';
import { captureWarnings } from './warnings.js';
import { priceView, sessionTotals } from './session-totals.js';

export interface TuiOptions {
  /** A run in a new session (no id) or the one `resume` names, for /clear and /resume; warnings go to `stderr`. */
  openRun(resume: string | undefined, stderr: NodeJS.WritableStream): Promise<PreparedRun>;
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
 * The run's prompt (`xagent "fix the build"`) is the first task, as if typed.
 * @example const tui = startTui(run, { openRun }); process.exitCode = await tui.done;
 */
export function startTui(run: PreparedRun, options: TuiOptions): TuiHandle {
  const { config, session } = run;
  const stdout = options.stdout ?? process.stdout;
  const store = new TuiStore({
    sessionId: session.sessionId,
    modelId: config.modelLabel,
    permissionMode: config.permissionMode,
    price: priceView(config),
    ...sessionTotals(session),
  });
  const controller = new TuiController(run, store);
  registerBuiltinCommands({ openRun: options.openRun });
  registerAgentsCommand();
  registerContextCommands();
  registerConfigCommands();
  registerRewindCommand();
  const history: string[] = [];
  /** The tasks typed so far, one after another: each starts when the one before it has ended. */
  let tasks: Promise<unknown> = Promise.resolve();
  let queued = 0;

  let leave: () => void = () => undefined;
  const left = new Promise<void>((resolve) => (leave = resolve));
  const context: CommandContext = {
    controller,
    print: (text, tone) => store.note(text, tone),
    exit: () => leave(),
    // The screen and the scrollback, then the cursor home: Ink draws its live part again below.
    clearScreen: () => stdout.write('\x1b[2J\x1b[3J\x1b[H'),
    // One less than the terminal: a line that fills the last column makes some terminals wrap an empty one.
    width: () => Math.max(20, (stdout.columns || 80) - 1),
  };

  const submit = (text: string) => {
    if (history.at(-1) !== text) history.push(text);
    if (text.startsWith('/')) {
      store.add({ kind: 'user', text });
      const { command } = findCommand(text);
      const run = () => runCommand(text, context);
      // A command such as /clear that cannot run mid-task takes its place in the line: after the tasks
      // typed before it, and before any typed after it (which must not start while it still runs).
      if (command && !command.whileRunning && (controller.busy || queued > 0)) {
        store.note(`/${command.name} runs when the running task ends (Esc stops the task).`, 'dim');
        tasks = tasks.then(run, run);
      } else void run();
      return;
    }
    // A task typed while one runs waits its turn, as in Claude Code: it starts when the running one
    // (and any typed before it) ends; Esc stops the running one.
    const waits = controller.busy || queued > 0;
    if (waits) {
      queued += 1;
      store.update({ hint: `Queued (${queued}): runs when the running task ends. Esc stops the running task.` });
    }
    const start = async () => {
      await controller.whenIdle();
      await markdownReady;
      if (waits) queued -= 1;
      store.update({ hint: queued > 0 ? `Queued (${queued}): runs when the running task ends.` : '' });
      await controller.runTask(text);
    };
    tasks = tasks.then(start, start);
  };

  store.note(
    `xagent · ${config.modelLabel} · ${config.workspace}\nType a task; /help lists commands. Esc stops a task; Ctrl-D leaves.`,
    'dim',
  );
  if (run.inspector) store.note(`Inspector: ${run.inspector.server.url}`, 'dim');
  showMcpStartup(run, store);
  // After the markdown renderer loads: a resumed answer is printed once, rendered as a live one is.
  if (!session.isNew) void showResumed(store, session.messages);

  const restoreWarnings = captureWarnings(store);
  const stdin = options.stdin ?? process.stdin;
  // Raw at once, not when Ink's input hook mounts: keys typed meanwhile must not be echoed and cooked.
  if (stdin.isTTY) stdin.setRawMode(true);
  const ink = render(
    <App
      store={store}
      history={history}
      onSubmit={submit}
      onInterrupt={() => controller.interrupt()}
      onLeave={() => leave()}
      onCycleMode={() => controller.cycleMode()}
      onExpand={() => controller.expandLastOutput()}
      onCloseTranscript={() => controller.closeTranscript()}
      onRewind={() => submit('/rewind')}
    />,
    {
      exitOnCtrlC: false,
      // captureWarnings routes console.warn/error into the transcript; Ink's patch would take them back.
      patchConsole: false,
      stdout,
      stdin,
    },
  );
  if (config.prompt) submit(config.prompt);

  const done = (async () => {
    await left;
    await controller.close();
    ink.unmount();
    await ink.waitUntilExit();
    restoreWarnings();
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

/** "Starting MCP servers…" with a spinner while they start (the first task waits for them), then what they offer. */
function showMcpStartup(run: PreparedRun, store: TuiStore): void {
  if (!run.mcp) return;
  const starting = { kind: 'starting', label: 'Starting MCP servers…', since: Date.now() } as const;
  store.update({ activity: starting });
  void run.mcp.then(async (manager) => {
    await manager?.ready().catch(() => undefined);
    if (store.get().activity === starting) store.update({ activity: null });
    const statuses = manager?.statuses() ?? [];
    if (statuses.length > 0)
      store.note(`MCP servers: ${statuses.map((s) => s.name).join(', ')} · ${manager?.tools().length ?? 0} tools`, 'dim');
  });
}
