import { costUsd } from '../model/cost.js';
import type { Message, TextBlock, ToolCall, Usage } from '../../machines/types.js';
import { isAnnotation, type TraceStateRecord } from '../sessions/records.js';
import type { SessionRecords } from '../sessions/session-reader.js';
import type { InspectorHistory } from './history.js';
import type { InspectorLimits } from './records.js';
import { resultRecord } from './result-record.js';
import { stateTags, TAG } from '../../machines/query-engine.js';

/**
 * Traces written before the ordered evidence log (record versions 1 and 2) hold the states and a
 * few annotations without sequence numbers; the tool results are in audit.jsonl and the text in
 * transcript.jsonl. This pieces them together: annotations go in by timestamp, each answer's text
 * before the first state of a later turn, each tool result after its execute_tool state.
 */

/** An old line's state ran a tool (its lines carry no tags: the state's tags are read from the chart). */
function ranTool(line: TraceStateRecord): boolean {
  return stateTags(line.state).includes(TAG.tool);
}

function assistantText(message: Message): string {
  return message.content
    .filter((b): b is TextBlock => b.type === 'text' && typeof (b as TextBlock).text === 'string')
    .map((b) => b.text)
    .join('');
}

/** Appends the pieced-together run of an older trace to `history` (its meta record is already there). */
export function appendPiecedRun(history: InspectorHistory, records: SessionRecords, limits: InspectorLimits): void {
  const { states: trace, annotations, messages, audit } = records;
  const assistants = messages.filter((m) => m.role === 'assistant');
  const start = annotations.filter((l) => isAnnotation(l, 'task_start')).at(-1);
  const retries = annotations.filter((l) => isAnnotation(l, 'retry'));
  const compactions = annotations.filter((l) => isAnnotation(l, 'compact'));
  const hookRuns = annotations.filter((l) => isAnnotation(l, 'hook'));
  let nextAssistant = 0;
  let lastText = '';
  let previous: TraceStateRecord | undefined;
  let started = Date.parse(trace[0]!.ts);
  const usedAudit = new Set<number>();

  for (const line of trace) {
    if (line.seq === 0) {
      started = Date.parse(line.ts);
      lastText = '';
    }
    // The model answered between the previous line and this one: its text comes first.
    if (previous && line.seq > 0 && line.turn > previous.turn && nextAssistant < assistants.length) {
      const text = assistantText(assistants[nextAssistant++]!);
      if (text) history.append({ kind: 'text', text }, line.ts);
      if (text) lastText = text;
    }
    for (const retry of retries.filter((r) => r.ts <= line.ts && (!previous || r.ts > previous.ts))) {
      if (!isAnnotation(retry, 'retry')) continue;
      const { event: _event, ts, v: _v, session_id: _sid, state: _state, turn: _turn, ...fields } = retry;
      history.append({ kind: 'retry', ...fields }, ts);
    }
    for (const compact of compactions.filter((r) => r.ts <= line.ts && (!previous || r.ts > previous.ts))) {
      if (!isAnnotation(compact, 'compact')) continue;
      const { reason, tokens_before, tokens_after, removed_messages, error } = compact;
      history.append({ kind: 'compact', reason, tokens_before, tokens_after, removed_messages, ...(error ? { error } : {}) }, compact.ts);
    }
    for (const run of hookRuns.filter((r) => r.ts <= line.ts && (!previous || r.ts > previous.ts))) {
      if (!isAnnotation(run, 'hook')) continue;
      const { event: _event, ts, v: _v, session_id: _sid, turn: _turn, ...fields } = run;
      history.append({ kind: 'hook', ...fields }, ts);
    }
    if (previous && ranTool(previous) && previous.call) toolResult(previous.call, line.ts);
    // Old traces have no `via`: the page then matches the transition by its two states.
    const { v: _v, state, ts, session_id: _sid, ...fields } = line;
    const tags = stateTags(state);
    history.append({ kind: 'state', name: state, tags, ...fields }, ts);
    if (tags.includes(TAG.tool) && line.call) history.append({ kind: 'tool_start', call: line.call }, ts);
    if (tags.includes(TAG.final) && line.reason) {
      history.append(
        resultRecord(
          {
            reason: line.reason,
            is_error: line.reason !== 'final_answer',
            text: lastText,
            turns: line.turn,
            tool_calls: line.tool_call_count,
            usage: line.usage ?? ({ input_tokens: 0, output_tokens: 0 } as Usage),
            total_cost_usd: start?.model && line.usage ? costUsd(start.model, line.usage) : null,
            duration_ms: Date.parse(ts) - started,
            ...(line.error ? { error: line.error } : {}),
            ...(line.decision ? { decision: line.decision } : {}),
            ...(line.call ? { call: line.call } : {}),
          },
          limits,
        ),
        ts,
      );
    }
    previous = line;
  }
  if (previous && ranTool(previous) && previous.call) toolResult(previous.call, previous.ts);

  function toolResult(call: ToolCall, fallbackTs: string): void {
    const index = audit.findIndex((a, k) => !usedAudit.has(k) && a.call?.id === call.id);
    if (index < 0) return;
    usedAudit.add(index);
    const entry = audit[index]!;
    history.append(
      {
        kind: 'tool_result',
        call,
        result: {
          content: entry.content ?? '',
          is_error: entry.is_error === true,
          ...(entry.sandboxed === true ? { sandboxed: true } : {}),
        },
        ...(entry.duration_ms !== undefined ? { duration_ms: entry.duration_ms } : {}),
      },
      entry.ts ?? fallbackTs,
    );
  }
}
