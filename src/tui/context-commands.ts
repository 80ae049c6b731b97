import { CONTEXT_COMMANDS, contextCommands } from '../run/context-commands.js';
import { registerCommand } from './commands.js';

/**
 * /context and /compact in the terminal UI: the same functions the line-mode prompt calls
 * (src/cli/context-commands.ts), registered like every other slash command.
 */
export function registerContextCommands(): void {
  registerCommand({
    name: 'context',
    description: CONTEXT_COMMANDS['/context'],
    whileRunning: true,
    run: async ({ controller, print }) =>
      print(await contextCommands(controller.config, controller.session, () => controller.run.tools()).context()),
  });
  registerCommand({
    name: 'compact',
    description: CONTEXT_COMMANDS['/compact'],
    run: async ({ controller, print }) => {
      print('Compacting the conversation…', 'dim');
      print(
        await contextCommands(controller.config, controller.session, () => controller.run.tools()).compact(new AbortController().signal),
      );
    },
  });
}
