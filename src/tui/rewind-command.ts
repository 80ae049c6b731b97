import { describeRewind } from '../terminal/rewind-lines.js';
import { BASH_NOT_TRACKED } from '../rewind/files.js';
import { readCheckpointLog } from '../rewind/checkpoint-log.js';
import { changesSince } from '../rewind/plan.js';
import { rewindSession } from '../rewind/rewind.js';
import { userMessages } from '../rewind/user-messages.js';
import { visible } from '../terminal/visible.js';
import { loadTranscript } from '../sessions/transcript.js';
import { registerCommand } from './commands.js';
import { askChoice as ask } from './ask-choice.js';

const HALVES = [
  { label: 'Restore code and conversation', code: true, conversation: true },
  { label: 'Restore conversation only', code: false, conversation: true },
  { label: 'Restore code only', code: true, conversation: false },
] as const;

/**
 * `/rewind [n]` (and Esc Esc on an empty prompt): pick one of your messages, then what to put
 * back; files changed outside xagent since are overwritten only after a yes. The session's lock
 * is this UI's already, and the conversation it holds is reloaded after a conversation rewind.
 */
export function registerRewindCommand(): void {
  registerCommand({
    name: 'rewind',
    args: '[n]',
    description: 'go back to one of your messages: code and conversation (Esc Esc)',
    run: async ({ controller, print }, args) => {
      const { store, session } = controller;
      const messages = userMessages(session.dir);
      if (messages.length === 0) return print('Nothing to rewind to yet: this session has no messages.', 'dim');
      const log = readCheckpointLog(session.dir);
      let index: number | null = args ? Number(args) - 1 : null;
      if (index !== null && !messages[index]) return print(`There is no message ${args}: this session has ${messages.length}.`, 'error');
      index ??= await ask(store, {
        title: ['Rewind to which of your messages? The session goes back to the moment it was sent.'],
        options: messages.map((m) => {
          const files = changesSince(log, m.offset).size;
          return `${visible(m.text.replace(/\s+/g, ' ').slice(0, 60))}${files ? ` (${files} file${files === 1 ? '' : 's'} changed since)` : ''}`;
        }),
        footer: BASH_NOT_TRACKED,
      });
      const message = index === null ? undefined : messages[index];
      if (!message) return print('Not rewound.', 'dim');
      const half = await ask(store, {
        title: [`Rewind to message ${message.n}: "${visible(message.text.slice(0, 60))}"`],
        options: HALVES.map((h) => h.label),
        footer: BASH_NOT_TRACKED,
      });
      const halves = half === null ? undefined : HALVES[half];
      if (!halves) return print('Not rewound.', 'dim');
      const outcome = await rewindSession({
        sessionDir: session.dir,
        sessionId: session.sessionId,
        to: message.n,
        code: halves.code,
        conversation: halves.conversation,
        workspace: controller.config.workspace,
        confirm: async (files) =>
          (await ask(store, {
            title: ['These files were changed outside xagent since its last change:', ...files.map((f) => `  ${visible(f)}`)],
            options: ['Overwrite them with the rewound versions', 'Leave everything as it is'],
          })) === 0,
      });
      // The next task continues from the cut conversation: the array the run passes to the engine is replaced in place.
      if (outcome.kind === 'done' && halves.conversation)
        session.messages.splice(0, session.messages.length, ...loadTranscript(session.dir).messages);
      print(describeRewind(session.sessionId, outcome, halves), outcome.kind === 'done' ? 'info' : 'dim');
      if (outcome.kind === 'done' && halves.conversation) print(`Your message was: ${visible(message.text)}`, 'dim');
    },
  });
}
