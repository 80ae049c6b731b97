import path from 'node:path';
import type { Message } from '../../machines/types.js';
import { readJsonLines, type LineProblem } from './jsonl.js';
import { AUDIT_FILE, TRANSCRIPT_FILE } from './layout.js';
import { recordVersion } from './records.js';
import type { RecordedResult } from './repair.js';

export { AUDIT_FILE, TRACE_FILE, TRANSCRIPT_FILE } from './layout.js';

export interface LoadedTranscript {
  messages: Message[];
  /** Lines skipped: torn, malformed JSON, or JSON that is not a message. */
  problems: LineProblem[];
}

/**
 * Reads `<dir>/transcript.jsonl` into messages. Unusable lines are skipped and reported, never
 * fatal: a conversation with one bad line is still worth continuing (the pairing repair and the
 * request builder's merge of adjacent same-role messages keep what is left valid for the API).
 * @example const { messages, problems } = loadTranscript('/home/me/.xagent/sessions/abc');
 */
export function loadTranscript(dir: string): LoadedTranscript {
  const file = path.join(dir, TRANSCRIPT_FILE);
  const { values, problems } = readJsonLines(file);
  const messages: Message[] = [];
  for (const { line, value } of values) {
    recordVersion(value, file);
    const message = toMessage(value);
    if (message) messages.push(message);
    else problems.push({ line, kind: 'malformed', detail: 'not a message ({role: "user" | "assistant", content})' });
  }
  problems.sort((a, b) => a.line - b.line);
  return { messages, problems };
}

/** A message line (its record version dropped), including the older shape whose content is a plain string. */
export function toMessage(value: unknown): Message | null {
  if (typeof value !== 'object' || value === null) return null;
  const { role, content } = value as { role?: unknown; content?: unknown };
  if (role !== 'user' && role !== 'assistant') return null;
  if (typeof content === 'string') return { role, content: [{ type: 'text', text: content }] };
  if (!Array.isArray(content)) return null;
  const blocksOk = content.every((b: unknown) => typeof b === 'object' && b !== null && typeof (b as { type?: unknown }).type === 'string');
  return blocksOk ? { role, content: content as Message['content'] } : null;
}

/**
 * What each finished tool call returned, from `<dir>/audit.jsonl` (one line per execution,
 * written before the results message): lets a repair say what a finished call did.
 */
export function recordedResults(dir: string): Map<string, RecordedResult> {
  const results = new Map<string, RecordedResult>();
  for (const { value } of readJsonLines(path.join(dir, AUDIT_FILE)).values) {
    const entry = value as { call?: { id?: unknown }; content?: unknown; is_error?: unknown } | null;
    const id = entry?.call?.id;
    if (typeof id !== 'string' || typeof entry?.content !== 'string') continue;
    results.set(id, { content: entry.content, isError: entry.is_error === true });
  }
  return results;
}

/** The text of the first user message that has text: the session's first prompt for older sessions without meta.json. */
export function firstUserText(messages: readonly Message[]): string {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const block of message.content) {
      if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') return block.text;
    }
  }
  return '';
}
