import type { TuiController } from './controller.js';

/**
 * Slash commands: one registry for the built-ins and for what other features add
 * (`registerCommand({ name: 'mcp', ... })`). The input box completes from it and /help lists it.
 */

export interface CommandContext {
  controller: TuiController;
  /** Adds a line to the transcript. */
  print(text: string, tone?: 'info' | 'error' | 'warn' | 'dim'): void;
  /** Leaves the UI (it prints how to resume). */
  exit(): void;
  /** Clears the terminal and its scrollback (/clear). */
  clearScreen?(): void;
  /** The columns a printed line may fill (the terminal's width, less one). */
  width?(): number;
}

export interface SlashCommand {
  /** Without the slash: `help`. */
  name: string;
  /** What it takes, for /help: `<session-id>`. */
  args?: string;
  description: string;
  /** May run while a task runs (/cost, /help); others wait for the task to end. */
  whileRunning?: boolean;
  run(context: CommandContext, args: string): void | Promise<void>;
}

const registry = new Map<string, SlashCommand>();

/** Adds a command (or replaces one of the same name). */
export function registerCommand(command: SlashCommand): void {
  registry.set(command.name, command);
}

export function listCommands(): SlashCommand[] {
  return [...registry.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Commands whose name starts with what is typed after the slash. */
export function completeCommand(typed: string): SlashCommand[] {
  const prefix = typed.replace(/^\//, '').split(/\s/, 1)[0] ?? '';
  return listCommands().filter((command) => command.name.startsWith(prefix));
}

/** The command a line names (`/perm` is /permissions: Enter on a unique beginning runs what Tab would complete), and its arguments. */
export function findCommand(line: string): { name: string; args: string; command: SlashCommand | undefined } {
  const [, name = '', args = ''] = /^\/(\S*)\s*([\s\S]*)$/.exec(line.trim()) ?? [];
  const matches = completeCommand(`/${name}`);
  return { name, args, command: registry.get(name) ?? (name && matches.length === 1 ? matches[0] : undefined) };
}

/** Runs `/name args`; an unknown name says so and lists what there is. */
export async function runCommand(line: string, context: CommandContext): Promise<void> {
  const { name, args, command } = findCommand(line);
  if (!command) {
    context.print(
      `Unknown command /${name}. Commands: ${listCommands()
        .map((c) => `/${c.name}`)
        .join(' ')}`,
      'error',
    );
    return;
  }
  // Never mid-task: the terminal UI queues such a command behind the running task (run-tui.tsx); any other caller waits here.
  if (context.controller.busy && !command.whileRunning) await context.controller.whenIdle();
  try {
    await command.run(context, args.trim());
  } catch (error) {
    context.print(`/${name}: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }
}
