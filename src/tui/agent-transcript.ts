import type { EvidenceRecord } from '../sessions/records.js';
import { formatElapsed } from '../terminal/spinner.js';
import { describeActivity, summarizeResult } from '../terminal/tool-activity.js';
import { visible } from '../terminal/visible.js';

/**
 * A subagent's transcript as Ctrl-O shows it, folded from its own lines of the session's evidence
 * log (each carries its agent path): the prompt it was given, each model text, each tool call with
 * a short result, and how it ended. Claude Code's Ctrl-O transcript view, for one agent.
 */
export type TranscriptEntry =
  | { kind: 'prompt'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool'; id: string; label: string; result: { summary: string; isError: boolean } | null }
  | { kind: 'end'; reason: string; isError: boolean; turns: number; toolCalls: number; durationMs: number };

/** Every subagent's transcript so far, by agent path (`main/task-1`). */
export type AgentTranscripts = ReadonlyMap<string, readonly TranscriptEntry[]>;

/**
 * The transcripts after `record`: a line of a subagent (not `main`) that says something a person
 * reads lands on its agent's list; the rest (states, usage, hooks) leaves them as they are.
 * Pure: the map and the changed list are replaced, so a view holding the old list keeps it.
 */
export function addToTranscripts(transcripts: AgentTranscripts, record: EvidenceRecord): AgentTranscripts {
  const agent = (record as { agent?: string }).agent;
  if (!agent || agent === 'main' || !('event' in record)) return transcripts;
  const entries = transcripts.get(agent) ?? [];
  const next = addEntry(entries, record as Annotation);
  if (next === entries) return transcripts;
  return new Map(transcripts).set(agent, next);
}

type Annotation = Exclude<EvidenceRecord, { state: string }>;

function addEntry(entries: readonly TranscriptEntry[], record: Annotation): readonly TranscriptEntry[] {
  switch (record.event) {
    case 'task_start':
      return [...entries, { kind: 'prompt', text: record.prompt }];
    case 'text':
      return record.text.trim() ? [...entries, { kind: 'text', text: record.text }] : entries;
    case 'tool_start':
      return [...entries, { kind: 'tool', id: record.call.id, label: describeActivity(record.call), result: null }];
    case 'tool_result': {
      const { call, result } = record;
      const { summary } = summarizeResult(call, result);
      // Batched calls answer in any order: the result goes on its own call's entry.
      return entries.map((e) => (e.kind === 'tool' && e.id === call.id ? { ...e, result: { summary, isError: result.is_error } } : e));
    }
    case 'result':
      return [
        ...entries,
        {
          kind: 'end',
          reason: record.reason,
          isError: record.is_error,
          turns: record.turns,
          toolCalls: record.tool_calls,
          durationMs: record.duration_ms,
        },
      ];
    default:
      return entries;
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The transcript as lines to show, every model-written text made safe for the terminal:
 * `› the prompt`, the texts indented, `⏺ read_file a.txt` with `⎿ 12 lines` under it, and
 * `⎿ Done (2 turns · 1 tool call · 3.0s)` at the end (or the stop reason, for a child that stopped).
 */
export function transcriptLines(entries: readonly TranscriptEntry[]): string[] {
  const lines: string[] = [];
  for (const entry of entries) {
    switch (entry.kind) {
      case 'prompt':
        lines.push(...visibleLines(entry.text).map((line, i) => (i === 0 ? `› ${line}` : `  ${line}`)), '');
        break;
      case 'text':
        lines.push(...visibleLines(entry.text).map((line) => `  ${line}`), '');
        break;
      case 'tool':
        lines.push(`⏺ ${visible(entry.label)}`);
        lines.push(entry.result ? `  ⎿ ${entry.result.isError ? 'Error: ' : ''}${visible(entry.result.summary)}` : '  ⎿ running…', '');
        break;
      case 'end': {
        const figures = `${plural(entry.turns, 'turn')} · ${plural(entry.toolCalls, 'tool call')} · ${formatElapsed(entry.durationMs)}`;
        lines.push(entry.reason === 'final_answer' && !entry.isError ? `⎿ Done (${figures})` : `⎿ Stopped: ${entry.reason} (${figures})`);
        break;
      }
      default: {
        const unreachable: never = entry;
        return unreachable;
      }
    }
  }
  while (lines.at(-1) === '') lines.pop();
  return lines;
}

const visibleLines = (text: string) => text.trimEnd().split('\n').map(visible);
