import type { Command } from 'commander';
import type { CommandStreams } from './subcommand-setup.js';
import { parsePositiveInt } from '../run/parse-options.js';
import { UsageError } from '../errors/xagent-error.js';

interface Streams extends CommandStreams {
  /** Where a question is answered; a terminal is asked, anything else is refused. */
  stdin: NodeJS.ReadStream;
}

/**
 * Adds `xagent rewind <session> --list | --to N [--code | --conversation]` and
 * `xagent fork <session> --to N`. The work is in rewind-run.ts, loaded when one of them runs.
 * @example registerRewindCommands(program, (code) => (exitCode = code));
 */
export function registerRewindCommands(program: Command, setExit: (code: number) => void, streams?: Streams): void {
  const io = streams ?? { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
  program
    .command('rewind <session>')
    .description('go back to a user message: files (write_file/edit_file changes) and conversation together')
    .option('--list', "number the session's user messages (1 is the first)")
    .option('--to <n>', 'put the session back to the moment message n was sent')
    .option('--code', 'only the files')
    .option('--conversation', 'only the conversation')
    .action(async (session: string, raw: { list?: boolean; to?: string; code?: boolean; conversation?: boolean }) => {
      if (raw.list && raw.to !== undefined) throw new UsageError('--list and --to cannot be used together');
      if (raw.code && raw.conversation) throw new UsageError('--code and --conversation each name one half; leave both out for both');
      const { listCommand, rewindCommand } = await import('./rewind-run.js');
      if (raw.to === undefined) {
        if (raw.code || raw.conversation) throw new UsageError('--code and --conversation go with --to <n>');
        setExit(listCommand(session, io));
        return;
      }
      const to = parsePositiveInt(raw.to, '--to');
      const halves = { code: !raw.conversation, conversation: !raw.code };
      setExit(await rewindCommand(session, to, halves, io));
    });
  program
    .command('fork <session>')
    .description('start a new session from an old one, up to a user message; prints the new id')
    .requiredOption('--to <n>', "the conversation up to user message n (rewind --list's numbers), without it")
    .action(async (session: string, raw: { to: string }) => {
      const to = parsePositiveInt(raw.to, '--to');
      const { forkCommand } = await import('./rewind-run.js');
      setExit(forkCommand(session, to, io));
    });
}
