import { createInterface } from 'node:readline';
import { createTerminalPrompt, type LineSource } from '../terminal/prompt.js';
import { CONTEXT_COMMANDS, contextCommands } from '../run/context-commands.js';
import { textRenderer } from '../terminal/text-renderer.js';
import type { PreparedRun } from '../run/prepare-run.js';
import { policyFor } from '../run/run-config.js';

export interface InteractiveIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean };
  errorOutput: NodeJS.WritableStream & { isTTY?: boolean };
  /** true on a real terminal: line editing, history, Ctrl-C as a key. */
  terminal: boolean;
}

export interface InteractiveHandle {
  /** Resolves with the exit code when the person leaves (/exit, Ctrl-D, Ctrl-C twice). */
  done: Promise<number>;
  /** What Ctrl-C does: stop the running task, else clear the line, else (twice) leave. */
  interrupt(): void;
}

const PROMPT = '› ';
/** Every command this prompt understands, so /help is the whole list. */
const LINE_COMMANDS: Record<string, string> = {
  '/help': 'this list',
  ...CONTEXT_COMMANDS,
  '/exit': 'leave (also /quit, Ctrl-D; the session stays recorded, xagent --resume continues it)',
};
const HELP = `Type a task and press Enter. Ctrl-C stops the running task; /exit or Ctrl-D leaves.\nCommands:\n${Object.entries(
  LINE_COMMANDS,
)
  .map(([name, what]) => `  ${name}: ${what}`)
  .join('\n')}`;

/**
 * The interactive mode: a prompt loop where each line is a new task in the same conversation.
 * Permission questions are asked through the same readline, so nothing else competes for stdin.
 */
export function startInteractive(run: PreparedRun, io: InteractiveIO): InteractiveHandle {
  const { config } = run;
  const rl = createInterface({ input: io.input, output: io.output, terminal: io.terminal, prompt: PROMPT, historySize: 500 });
  let running: { controller: AbortController; finished: Promise<unknown> } | null = null;
  let answer: ((line: string | null) => void) | null = null;
  let lastInterruptAt = 0;
  let closed = false;

  const lines = (signal: AbortSignal): LineSource => ({
    next: () =>
      new Promise((resolve) => {
        if (closed || signal.aborted) return resolve(null);
        answer = resolve;
        signal.addEventListener(
          'abort',
          () => {
            if (answer !== resolve) return;
            answer = null;
            resolve(null);
          },
          { once: true },
        );
      }),
    close: () => {
      answer = null;
      rl.setPrompt(PROMPT);
    },
    // readline redraws its own line as keys are typed, so the question must be its prompt.
    ask: (question) => {
      rl.setPrompt(question);
      rl.prompt();
    },
  });
  // One policy for the whole session, so "always" answers apply to later tasks too.
  const permissions = policyFor(config, createTerminalPrompt({ lines, output: io.errorOutput, workspace: config.workspace }));
  const commands = contextCommands(config, run.session, () => run.tools());

  // Lines typed while a task runs wait their turn (as in Claude Code), each run as if typed after it ended.
  const typedAhead: string[] = [];
  const nextLine = () => {
    if (closed) return;
    const line = typedAhead.shift();
    if (line === undefined) rl.prompt();
    else rl.emit('line', line);
  };

  const runTask = async (prompt: string) => {
    const controller = new AbortController();
    const finished = run.runTask({
      prompt,
      permissions,
      signal: controller.signal,
      renderer: textRenderer({ stdout: io.output, stderr: io.errorOutput }, config.limits),
    });
    running = { controller, finished };
    try {
      const result = await finished;
      commands.record(result);
    } catch (error) {
      io.errorOutput.write(`xagent: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      running = null;
      nextLine();
    }
  };

  // Runs like a task: Ctrl-C stops it, and no prompt is read while it runs.
  const runCompact = async () => {
    const controller = new AbortController();
    const finished = commands.compact(controller.signal);
    running = { controller, finished };
    try {
      io.errorOutput.write(`${await finished}\n`);
    } catch (error) {
      io.errorOutput.write(`xagent: /compact failed: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      running = null;
      nextLine();
    }
  };

  const interrupt = () => {
    if (running) {
      running.controller.abort();
      return;
    }
    const now = Date.now();
    if (now - lastInterruptAt < 2000) {
      rl.close();
      return;
    }
    lastInterruptAt = now;
    io.errorOutput.write('\n(press Ctrl-C again or type /exit to leave)\n');
    rl.prompt();
  };

  rl.on('SIGINT', interrupt);
  rl.on('line', (line) => {
    if (answer) {
      const reply = answer;
      answer = null;
      reply(line);
      return;
    }
    if (running) {
      typedAhead.push(line);
      return;
    }
    const text = line.trim();
    if (text === '/exit' || text === '/quit') return rl.close();
    if (text === '/help') io.errorOutput.write(`${HELP}\n`);
    if (text === '/cost') {
      io.errorOutput.write(`${commands.cost()}\n`);
      return nextLine();
    }
    if (text === '/context') {
      // Asks git, as a task's start does (never rejects).
      return void commands.context().then((shown) => {
        io.errorOutput.write(`${shown}\n`);
        nextLine();
      });
    }
    if (text === '/compact') return void runCompact();
    if (!text || text.startsWith('/')) {
      if (text && text !== '/help') io.errorOutput.write(`Unknown command ${text}. ${HELP}\n`);
      return nextLine();
    }
    void runTask(text);
  });

  const done = new Promise<number>((resolve) => {
    rl.on('close', () => {
      closed = true;
      answer?.(null);
      const current = running;
      if (!current) return resolve(0);
      current.controller.abort();
      void current.finished.then(
        () => resolve(0),
        () => resolve(0),
      );
    });
  });

  io.errorOutput.write(`xagent (${config.modelId}) in ${config.workspace}\n${HELP}\n`);
  if (config.prompt) void runTask(config.prompt);
  else rl.prompt();
  return { done, interrupt };
}
