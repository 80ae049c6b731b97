import type { Message, ToolResultBlock } from '../../machines/types.js';
import { isAnnotation, type AuditRecord, type EvidenceRecord, type TraceRecord } from './records.js';

/**
 * Where a tool's output is kept: once. The main agent's outputs go to the model, so the transcript
 * holds them (its tool_result blocks), and the trace's `tool_result` line says so instead of
 * holding a second copy: `result: {is_error, stored: 'transcript', length}`. A subagent's
 * conversation is not kept in the transcript, so its lines keep their output.
 *
 * A reader puts the output back (`withToolOutputs`), so replay, export and the inspector see what
 * the live run showed. When the transcript does not have it (the run was killed after the tool
 * ended and before its result reached the transcript, the result sent was another, or the session
 * is read while it runs), the audit line's excerpt stands in, marked as such.
 */

/** What a `tool_result` trace line holds in place of the output. */
export interface StoredOutput {
  is_error: boolean;
  sandboxed?: boolean;
  stored: 'transcript';
  /** The output's length in UTF-16 units, to know the transcript's block for it. */
  length: number;
}

/** The line as written to trace.jsonl: the main agent's tool output left to the transcript. */
export function traceLineOf(record: EvidenceRecord): object {
  if (!isAnnotation(record, 'tool_result') || !keepsItsConversation(record.agent)) return record;
  const { content, ...rest } = record.result;
  const result: StoredOutput = { ...rest, stored: 'transcript', length: content.length };
  return { ...record, result };
}

/** The main agent (absent on lines from before subagents): the one whose messages go to the transcript. */
function keepsItsConversation(agent: string | undefined): boolean {
  return agent === undefined || agent === 'main';
}

function isStored(result: unknown): result is StoredOutput {
  return (result as { stored?: unknown } | null)?.stored === 'transcript';
}

/**
 * The trace's lines with every stored output put back from the transcript. Both files are in the
 * order things happened, so the k-th line for a call id finds the first block for that id not yet
 * taken whose length and error flag agree (blocks no line stored, such as a refused call's, are
 * passed over). Lines that keep their output are returned as they are.
 * @example const lines = withToolOutputs(trace, messages, audit);
 */
export function withToolOutputs(lines: TraceRecord[], messages: Message[], audit: Array<Partial<AuditRecord>>): TraceRecord[] {
  if (!lines.some((line) => isAnnotation(line, 'tool_result') && isStored(line.result))) return lines;
  const blocks = blocksById(messages);
  const excerpts = excerptsById(audit);
  return lines.map((line) => {
    if (!isAnnotation(line, 'tool_result') || !isStored(line.result)) return line;
    const { stored: _stored, length, ...rest } = line.result as StoredOutput;
    const id = line.call.id;
    const excerpt = excerpts.get(id)?.shift();
    const block = takeMatching(blocks.get(id), length, rest.is_error);
    const content = block ?? missing(length, excerpt);
    return { ...line, result: { ...rest, content } };
  });
}

function blocksById(messages: Message[]): Map<string, ToolResultBlock[]> {
  const byId = new Map<string, ToolResultBlock[]>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      const result = block as ToolResultBlock;
      const list = byId.get(result.tool_use_id);
      if (list) list.push(result);
      else byId.set(result.tool_use_id, [result]);
    }
  }
  return byId;
}

/** Each execution's audit line, by call id: its excerpt, or null for a tool stopped mid-run (the line says so, not what it returned). */
function excerptsById(audit: Array<Partial<AuditRecord>>): Map<string, Array<string | null>> {
  const byId = new Map<string, Array<string | null>>();
  for (const line of audit) {
    const id = line.call?.id;
    if (typeof id !== 'string') continue;
    const excerpt = typeof line.content === 'string' && !line.aborted ? line.content : null;
    const list = byId.get(id);
    if (list) list.push(excerpt);
    else byId.set(id, [excerpt]);
  }
  return byId;
}

/** Takes the first block whose output has this length and error flag, and the blocks before it. */
function takeMatching(list: ToolResultBlock[] | undefined, length: number, isError: boolean): string | null {
  if (!list) return null;
  const at = list.findIndex((b) => typeof b.content === 'string' && b.content.length === length && (b.is_error === true) === isError);
  if (at < 0) return null;
  const block = list[at];
  list.splice(0, at + 1);
  return block?.content ?? null;
}

/** The audit's excerpt (its first 2,000 characters) when the transcript never got the output. */
function missing(length: number, excerpt: string | null | undefined): string {
  if (excerpt && excerpt.length === length) return excerpt;
  const note = `[the output (${length} characters) is not in the transcript: the run stopped, or was still running, before its result went to the model`;
  return excerpt ? `${note}; its first ${excerpt.length} characters, from the audit:]\n${excerpt}` : `${note}]`;
}
