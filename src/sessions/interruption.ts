import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Message, TextBlock } from '../../machines/types.js';
import { TRANSCRIPT_FILE } from './layout.js';
import { transcriptRecord } from './records.js';

/** What the next request says first after an interrupt; the words Claude Code uses, so models know them. */
export const INTERRUPT_MARKER = '[Request interrupted by user]';

/**
 * After an interrupted task: keeps the partial answer as an assistant message and adds a user
 * message with the interrupt marker, to `messages` and to the session's transcript. The next
 * prompt follows the marker (adjacent user messages are merged when sent), so the model reads
 * that its previous answer was cut off by the person, not lost.
 * @example recordInterruption({ dir: session.dir, messages: session.messages, partial: tracker.text() });
 */
export function recordInterruption({ dir, messages, partial }: { dir: string; messages: Message[]; partial: string }): void {
  const added: Message[] = [];
  const last = messages.at(-1);
  if (partial.trim() && last?.role === 'user') added.push({ role: 'assistant', content: [{ type: 'text', text: partial.trimEnd() }] });
  added.push({ role: 'user', content: [{ type: 'text', text: INTERRUPT_MARKER }] });
  messages.push(...added);
  appendFileSync(path.join(dir, TRANSCRIPT_FILE), added.map((m) => `${JSON.stringify(transcriptRecord(m))}\n`).join(''));
}

/** `Resumed <id> · N messages · last: "<first words of the last prompt>"`. */
export function resumedLine(sessionId: string, messages: readonly Message[]): string {
  const prompt = lastPrompt(messages);
  const words = prompt.split(/\s+/).filter(Boolean);
  const first = words.slice(0, 8).join(' ') + (words.length > 8 ? '…' : '');
  return `Resumed ${sessionId} · ${messages.length} messages${prompt ? ` · last: "${first}"` : ''}`;
}

/** The text the person last typed: the last user text that is neither a tool result nor the marker. */
export function lastPrompt(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role !== 'user') continue;
    const text = message.content
      .filter((b): b is TextBlock => b.type === 'text' && b.text !== INTERRUPT_MARKER)
      .map((b) => b.text)
      .join(' ')
      .trim();
    if (text) return text;
  }
  return '';
}
