import { costUsd } from '../model/cost.js';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { EngineState } from '../../machines/query-engine.js';
import type { Message, TextBlock, ToolCall, Usage } from '../../machines/types.js';
import type { TraceLine } from '../engine/events.js';
import { createHistory, type HistoryOptions, type InspectorHistory } from './history.js';
import { resultRecord } from './live-feed.js';
import { readJsonLines } from '../sessions/jsonl.js';

export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}

interface AuditLine {
  ts?: string;
  call?: ToolCall;
  is_error?: boolean;
  content?: string;
  duration_ms?: number;
}

type RetryLine = { event: 'retry'; ts: string; attempt: number; delay_ms: number; status?: number; message: string };
type TaskStartLine = {
  event: 'task_start';
  model?: string;
  limits?: { max_turns?: number; max_tool_calls?: number; timeout_ms?: number };
};

/** The usable lines of a JSONL file; a torn or malformed line is skipped (replay only shows). */
function readJsonl<T>(file: string): T[] {
  return readJsonLines(file).values.map(({ value }) => value as T);
}

function assistantText(message: Message): string {
  return message.content
    .filter((b): b is TextBlock => b.type === 'text' && typeof (b as TextBlock).text === 'string')
    .map((b) => b.text)
    .join('');
}

/** `<id>` under `$XAGENT_HOME/sessions`, a session directory, or a trace.jsonl file; returns the trace path. */
export function resolveSessionTarget(target: string, home: string): string {
  const candidates = [target, path.join(home, 'sessions', target)];
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    const file = statSync(candidate).isDirectory() ? path.join(candidate, 'trace.jsonl') : candidate;
    if (existsSync(file)) return path.resolve(file);
  }
  throw new ReplayError(`no recorded session "${target}": expected a session id under ${path.join(home, 'sessions')}, a session directory, or a trace.jsonl file`);
}

/**
 * Rebuilds the inspector history of a recorded session from its trace.jsonl, with the tool
 * results from audit.jsonl and the model's text from transcript.jsonl beside it when present.
 * @example const history = loadSessionHistory('/home/me/.xagent/sessions/abc/trace.jsonl');
 */
export function loadSessionHistory(traceFile: string, options: HistoryOptions = {}): InspectorHistory {
  const dir = path.dirname(traceFile);
  const lines = readJsonl<TraceLine | RetryLine | TaskStartLine>(traceFile);
  const trace = lines.filter((l): l is TraceLine => !('event' in l) && typeof (l as TraceLine).state === 'string');
  if (trace.length === 0) throw new ReplayError(`${traceFile} has no trace lines`);
  const audit = readJsonl<AuditLine>(path.join(dir, 'audit.jsonl'));
  const assistants = readJsonl<Message>(path.join(dir, 'transcript.jsonl')).filter((m) => m.role === 'assistant');

  const history = createHistory(options);
  // The latest task's limits (traces written before task_start lines existed have none).
  const start = lines.filter((l): l is TaskStartLine => 'event' in l && l.event === 'task_start').at(-1);
  const limits = {
    ...(start?.limits?.max_turns ? { maxTurns: start.limits.max_turns } : {}),
    ...(start?.limits?.max_tool_calls ? { maxToolCalls: start.limits.max_tool_calls } : {}),
    ...(start?.limits?.timeout_ms ? { timeoutMs: start.limits.timeout_ms } : {}),
  };
  history.append(
    { kind: 'meta', mode: 'replay', session_id: trace[0]!.session_id, limits, ...(start?.model ? { model: start.model } : {}), source: traceFile },
    trace[0]!.ts,
  );
  const retries = lines.filter((l): l is RetryLine => 'event' in l && l.event === 'retry');
  let nextAssistant = 0;
  let lastText = '';
  let previous: TraceLine | undefined;
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
      const { event: _event, ts, ...fields } = retry;
      history.append({ kind: 'retry', ...fields }, ts);
    }
    if (previous?.state === 'execute_tool' && previous.call) toolResult(previous.call, line.ts);
    const { state, ts, session_id: _sid, ...fields } = line;
    const via = previous && line.seq > 0 ? { event: '', from: previous.state, to: state } : undefined;
    history.append({ kind: 'state', name: state as EngineState, ...fields, ...(via ? { via } : {}) }, ts);
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
          {},
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
        result: { content: entry.content ?? '', is_error: entry.is_error === true },
        ...(entry.duration_ms !== undefined ? { duration_ms: entry.duration_ms } : {}),
      },
      entry.ts ?? fallbackTs,
    );
  }
}
