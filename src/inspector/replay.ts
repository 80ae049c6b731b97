import { costUsd } from '../model/cost.js';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Message, TextBlock, ToolCall, Usage } from '../../machines/types.js';
import { isAnnotation, type TraceStateRecord } from '../sessions/records.js';
import { readSessionRecords } from '../sessions/session-reader.js';
import { SessionError } from '../sessions/errors.js';
import { resolveSessionId } from '../sessions/store.js';
import { sessionDir, TRACE_FILE } from '../sessions/layout.js';
import { createHistory, type HistoryOptions, type InspectorHistory } from './history.js';
import { resultRecord } from './result-record.js';

export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}

function assistantText(message: Message): string {
  return message.content
    .filter((b): b is TextBlock => b.type === 'text' && typeof (b as TextBlock).text === 'string')
    .map((b) => b.text)
    .join('');
}

/** A session id or a unique prefix of one, a session directory, or a trace.jsonl file; returns the trace path. */
export function resolveSessionTarget(target: string, home: string): string {
  if (existsSync(target)) {
    const file = statSync(target).isDirectory() ? path.join(target, TRACE_FILE) : target;
    if (existsSync(file)) return path.resolve(file);
  }
  if (!target.includes('/') && !target.includes(path.sep)) {
    let id: string | undefined;
    try {
      id = resolveSessionId(home, target);
    } catch (error) {
      if (!(error instanceof SessionError) || error.code !== 'SESSION_NOT_FOUND')
        throw new ReplayError(error instanceof Error ? error.message : String(error));
    }
    const file = id ? path.join(sessionDir(home, id), TRACE_FILE) : undefined;
    if (file && existsSync(file)) return path.resolve(file);
  }
  throw new ReplayError(
    `no recorded session "${target}": expected a session id (or a unique prefix) under ${path.join(home, 'sessions')}, a session directory, or a trace.jsonl file`,
  );
}

/**
 * Rebuilds the inspector history of a recorded session from its trace.jsonl, with the tool
 * results from audit.jsonl and the model's text from transcript.jsonl beside it when present.
 * @example const history = loadSessionHistory('/home/me/.xagent/sessions/abc/trace.jsonl');
 */
export function loadSessionHistory(traceFile: string, options: HistoryOptions = {}): InspectorHistory {
  const { states: trace, annotations, messages, audit } = readSessionRecords(traceFile);
  if (trace.length === 0) throw new ReplayError(`${traceFile} has no trace lines`);
  const assistants = messages.filter((m) => m.role === 'assistant');

  const history = createHistory(options);
  // The latest task's limits (traces written before task_start lines existed have none).
  const start = annotations.filter((l) => isAnnotation(l, 'task_start')).at(-1);
  const startLimits = start && isAnnotation(start, 'task_start') ? start.limits : undefined;
  const limits = {
    ...(startLimits?.max_turns ? { maxTurns: startLimits.max_turns } : {}),
    ...(startLimits?.max_tool_calls ? { maxToolCalls: startLimits.max_tool_calls } : {}),
    ...(startLimits?.timeout_ms ? { timeoutMs: startLimits.timeout_ms } : {}),
  };
  const model = start && isAnnotation(start, 'task_start') ? start.model : undefined;
  // The prompt opens the conversation panel; with several tasks it would belong to only one of them.
  const starts = annotations.filter((l) => isAnnotation(l, 'task_start'));
  const prompt = starts.length === 1 && isAnnotation(starts[0], 'task_start') ? starts[0].prompt : undefined;
  history.append(
    {
      kind: 'meta',
      mode: 'replay',
      session_id: trace[0]!.session_id,
      limits,
      ...(model ? { model } : {}),
      ...(prompt ? { prompt } : {}),
      source: traceFile,
    },
    trace[0]!.ts,
  );
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
    if (previous?.state === 'execute_tool' && previous.call) toolResult(previous.call, line.ts);
    // Old traces have no `via`: the page then matches the transition by its two states.
    const { v: _v, state, ts, session_id: _sid, ...fields } = line;
    history.append({ kind: 'state', name: state, ...fields }, ts);
    if (state === 'execute_tool' && line.call) history.append({ kind: 'tool_start', call: line.call }, ts);
    if (state === 'done' && line.reason) {
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
  if (previous?.state === 'execute_tool' && previous.call) toolResult(previous.call, previous.ts);
  return history;

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
