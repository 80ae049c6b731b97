import { visible } from './visible.js';
import { BASH_NOT_TRACKED } from '../rewind/files.js';
import type { RewindOutcome } from '../rewind/rewind.js';

/** What a rewind did, in a few lines for a person (the CLI's stderr, the terminal UI's notes). */
export function describeRewind(id: string, outcome: RewindOutcome, halves: { code: boolean; conversation: boolean }): string {
  if (outcome.kind === 'cancelled') return 'Not rewound: nothing was changed.';
  const lines = [`Rewound ${id} to message ${outcome.message.n} ("${visible(outcome.message.text.slice(0, 60))}").`];
  if (halves.code) {
    const restored = outcome.files.filter((f) => f.action === 'restored').map((f) => f.path);
    const deleted = outcome.files.filter((f) => f.action === 'deleted').map((f) => f.path);
    const parts = [restored.length ? `restored ${restored.join(', ')}` : '', deleted.length ? `deleted ${deleted.join(', ')}` : ''];
    lines.push(outcome.files.length === 0 ? 'Files: nothing to put back.' : `Files: ${parts.filter(Boolean).join('; ')}.`);
    for (const item of outcome.left) lines.push(`Left as it is: ${item.path} (${item.why}).`);
  }
  if (halves.conversation) lines.push(`Conversation: ${outcome.messagesBefore} messages, now ${outcome.messagesAfter}.`);
  if (halves.code) lines.push(BASH_NOT_TRACKED);
  return lines.join('\n');
}
