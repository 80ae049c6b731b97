import { existsSync, readFileSync } from 'node:fs';
import type { Message, TextBlock } from '../../machines/types.js';
import { INTERRUPT_MARKER } from '../sessions/interruption.js';
import { transcriptPath } from '../sessions/layout.js';
import { toMessage } from '../sessions/transcript.js';

/** A message the person sent, as `rewind --list` numbers it. */
export interface UserMessage {
  /** 1 is the session's first. */
  n: number;
  text: string;
  /** Where its line starts in transcript.jsonl: the conversation before it is the file's first `offset` bytes. */
  offset: number;
}

const STOP_HOOK_PREFIX = 'A Stop hook did not let you stop yet:';

/**
 * The person's messages in transcript.jsonl, in order, with the byte offset of each line. Tool
 * results, the interrupt marker and a Stop hook's nudge are user messages to the API but not
 * something the person sent. Counted over the file, so a message compacted away still has its
 * number (rewinding to it gives back the conversation as it was then).
 * @example userMessages(dir).map((m) => `${m.n}. ${m.text}`)
 */
export function userMessages(sessionDir: string): UserMessage[] {
  const file = transcriptPath(sessionDir);
  if (!existsSync(file)) return [];
  const bytes = readFileSync(file);
  const found: UserMessage[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    // A last line without its newline is torn (cut by a crash): it was never a whole message.
    if (end === -1) break;
    const text = promptText(parse(bytes.subarray(start, end).toString('utf8')));
    if (text !== null) found.push({ n: found.length + 1, text, offset: start });
    start = end + 1;
  }
  return found;
}

function parse(line: string): Message | null {
  try {
    return toMessage(JSON.parse(line));
  } catch {
    return null;
  }
}

/** The text the person typed, or null when the message is not one they sent. */
export function promptText(message: Message | null): string | null {
  if (message?.role !== 'user') return null;
  if (message.content.some((block) => block.type === 'tool_result')) return null;
  const first = message.content[0];
  if (first?.type !== 'text') return null;
  const text = (first as TextBlock).text;
  if (typeof text !== 'string' || text === INTERRUPT_MARKER || text.startsWith(STOP_HOOK_PREFIX)) return null;
  return text;
}
