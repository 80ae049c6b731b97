import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { xagentHome } from '../sessions/layout.js';
import { acquireSessionLock } from '../sessions/lock.js';
import { readMeta } from '../sessions/meta.js';
import { resolveSessionId, sessionDir } from '../sessions/store.js';
import { visible } from '../terminal/visible.js';
import type { CommandStreams } from './subcommand-setup.js';
import { readCheckpointLog } from '../rewind/checkpoint-log.js';
import { BASH_NOT_TRACKED } from '../rewind/files.js';
import { forkSession } from '../rewind/fork.js';
import { recoverRewind } from '../rewind/journal.js';
import { changesSince } from '../rewind/plan.js';
import { RewindError } from '../rewind/rewind-error.js';
import { rewindSession } from '../rewind/rewind.js';
import { describeRewind } from '../terminal/rewind-lines.js';
import { userMessages } from '../rewind/user-messages.js';

interface Streams extends CommandStreams {
  stdin: NodeJS.ReadStream;
}

const USAGE = 2;

/** `rewind --list`: the user messages, numbered, each with how many files were changed after it. */
export function listCommand(session: string, io: Streams): number {
  const home = path.resolve(xagentHome());
  const id = resolveSessionId(home, session);
  const dir = sessionDir(home, id);
  const messages = userMessages(dir);
  if (messages.length === 0) {
    io.stdout.write(`Session ${id} has no user messages yet.\n`);
    return 0;
  }
  const log = readCheckpointLog(dir);
  io.stdout.write(`Session ${id}: rewind --to N puts it back to the moment message N was sent.\n`);
  for (const message of messages) {
    const files = changesSince(log, message.offset).size;
    const first = message.text.replace(/\s+/g, ' ').trim();
    const shown = first.length > 70 ? `${first.slice(0, 69)}…` : first;
    io.stdout.write(
      `${String(message.n).padStart(3)}. ${visible(shown)}${files > 0 ? `  (${files} file${files === 1 ? '' : 's'} changed since)` : ''}\n`,
    );
  }
  io.stdout.write(`${BASH_NOT_TRACKED}\n`);
  return 0;
}

/** `rewind --to N`: takes the session's lock, finishes an interrupted rewind, then rewinds. */
export async function rewindCommand(
  session: string,
  to: number,
  halves: { code: boolean; conversation: boolean },
  io: Streams,
): Promise<number> {
  const home = path.resolve(xagentHome());
  const id = resolveSessionId(home, session);
  const dir = sessionDir(home, id);
  const release = acquireSessionLock(dir, id);
  try {
    const recovered = recoverRewind(dir);
    if (recovered) io.stderr.write(`xagent: ${recovered}\n`);
    const meta = readMeta(dir);
    const outcome = await rewindSession({
      sessionDir: dir,
      sessionId: id,
      to,
      ...halves,
      workspace: meta.kind === 'ok' ? meta.meta.workspace : null,
      ...(io.stdin.isTTY ? { confirm: (files: string[]) => askOverwrite(files, io) } : {}),
    });
    io.stderr.write(`${describeRewind(id, outcome, halves)}\n`);
    return outcome.kind === 'done' ? 0 : 1;
  } catch (error) {
    if (error instanceof RewindError) {
      io.stderr.write(`xagent: ${error.message}\n`);
      return USAGE;
    }
    throw error;
  } finally {
    release();
  }
}

/** `fork <session> --to N`: the new session's id alone on stdout. */
export function forkCommand(session: string, to: number, io: Streams): number {
  try {
    const fork = forkSession({ home: path.resolve(xagentHome()), from: session, at: to });
    io.stdout.write(`${fork.sessionId}\n`);
    io.stderr.write(
      `Forked ${fork.from} before message ${to} (${fork.messages} messages); continue it with xagent --resume ${fork.sessionId}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof RewindError) {
      io.stderr.write(`xagent: ${error.message}\n`);
      return USAGE;
    }
    throw error;
  }
}

async function askOverwrite(files: string[], io: Streams): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await rl.question(
      `These files were changed outside xagent since its last change:\n  ${files.join('\n  ')}\nOverwrite them with the rewound versions? [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
