import { readFileSync } from 'node:fs';
import type { Message } from '../../machines/types.js';
import { applyCompactionRecord, isCompactionRecord } from '../sessions/compaction-record.js';
import { transcriptPath } from '../sessions/layout.js';
import { toMessage } from '../sessions/transcript.js';

/** transcript.jsonl's first `bytes` bytes: the conversation as it stood when the message there was sent. */
export function transcriptPrefix(sessionDir: string, bytes: number): Buffer {
  return readFileSync(transcriptPath(sessionDir)).subarray(0, bytes);
}

/** The conversation those bytes hold, compactions applied, as a resume would load it. */
export function conversationOf(prefix: Buffer): Message[] {
  const messages: Message[] = [];
  for (const line of prefix.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (isCompactionRecord(value)) applyCompactionRecord(messages, value);
    else {
      const message = toMessage(value);
      if (message) messages.push(message);
    }
  }
  return messages;
}
