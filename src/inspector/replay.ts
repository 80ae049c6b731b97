import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { eventOf } from '../engine/events.js';
import { chartFingerprint } from '../../machines/chart-fingerprint.js';
import { isAnnotation, ORDERED_LOG_VERSION, type EvidenceRecord } from '../sessions/records.js';
import { readSessionRecords, type SessionRecords } from '../sessions/session-reader.js';
import { SessionError } from '../sessions/errors.js';
import { resolveSessionId } from '../sessions/store.js';
import { sessionDir, TRACE_FILE } from '../sessions/layout.js';
import { createHistory, type HistoryOptions, type InspectorHistory } from './history.js';
import { forkCommand, recordOf } from './live-feed.js';
import type { InspectorLimits, RecordBody } from './records.js';
import { messageNumbers, type TaskMessage } from './message-numbers.js';
import { appendPiecedRun } from './replay-legacy.js';
import { UsageError } from '../errors/xagent-error.js';

export class ReplayError extends UsageError {
  override readonly name = 'ReplayError';
  override readonly fault = 'session';
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
 * Rebuilds the inspector history of a recorded session. A trace of the ordered evidence log
 * (version 3) is read line by line through the same projection the live feed uses (`eventOf`, then
 * `recordOf`), so a replay shows what the live page showed. An older trace is pieced together from
 * its three files. Either way the page is told which chart recorded it.
 * @example const history = loadSessionHistory('/home/me/.xagent/sessions/abc/trace.jsonl');
 */
export function loadSessionHistory(traceFile: string, options: HistoryOptions = {}): InspectorHistory {
  const records = readSessionRecords(traceFile);
  const { states, annotations } = records;
  if (states.length === 0) throw new ReplayError(`${traceFile} has no trace lines`);
  const history = createHistory(options);
  const starts = annotations.filter((l) => isAnnotation(l, 'task_start'));
  // The latest task's limits (traces written before task_start lines existed have none).
  const start = starts.at(-1);
  const startLimits = start && isAnnotation(start, 'task_start') ? start.limits : undefined;
  const limits: InspectorLimits = {
    ...(startLimits?.max_turns ? { maxTurns: startLimits.max_turns } : {}),
    ...(startLimits?.max_tool_calls ? { maxToolCalls: startLimits.max_tool_calls } : {}),
    ...(startLimits?.timeout_ms ? { timeoutMs: startLimits.timeout_ms } : {}),
  };
  const model = start && isAnnotation(start, 'task_start') ? start.model : undefined;
  // The prompt opens the conversation panel; with several tasks it would belong to only one of them.
  const prompt = starts.length === 1 && isAnnotation(starts[0], 'task_start') ? starts[0].prompt : undefined;
  const recorded = recordedChart(starts);
  const current = chartFingerprint();
  history.append(
    {
      kind: 'meta',
      mode: 'replay',
      session_id: states[0]!.session_id,
      limits,
      ...(model ? { model } : {}),
      ...(prompt ? { prompt } : {}),
      source: traceFile,
      chart: { recorded, current },
    },
    (start ?? states[0]!).ts,
  );
  if (recorded !== current) {
    history.append(
      {
        kind: 'notice',
        message: `Recorded by an older chart (${recorded ? `fingerprint ${recorded}` : 'before charts had fingerprints'}; this xagent's is ${current}): its steps are shown, and only transitions this chart still has are highlighted.`,
      },
      (start ?? states[0]!).ts,
    );
  }
  if (records.oldestVersion >= ORDERED_LOG_VERSION) appendOrderedRun(history, records, limits);
  else appendPiecedRun(history, records, limits);
  return history;
}

/** A task's user message as the page shows it: its number and the exact command to fork before it. */
function promptRecord(sessionId: string, text: string, task: TaskMessage): RecordBody {
  if (task.rewoundBy !== null) {
    const why_not = `message ${task.n} was cut from the conversation by a rewind to message ${task.rewoundBy}; it can no longer be forked from this session`;
    return { kind: 'prompt', n: task.n, text, fork_command: null, why_not };
  }
  return { kind: 'prompt', n: task.n, text, fork_command: forkCommand(sessionId, task.n) };
}

/** The chart the trace's tasks were recorded by: the one fingerprint they share, else null (none, or several). */
function recordedChart(starts: readonly unknown[]): string | null {
  const prints = new Set(starts.map((s) => (isAnnotation(s, 'task_start') ? (s.chart ?? null) : null)));
  const [only] = prints;
  return prints.size === 1 && only ? only : null;
}

/**
 * Reads an ordered evidence log: every line in order, as the live page got it, one timeline even
 * across rewinds; each task opens with its user message's number and the command that forks there.
 */
function appendOrderedRun(history: InspectorHistory, records: SessionRecords, limits: InspectorLimits): void {
  const lines = records.lines as EvidenceRecord[];
  const numbers = messageNumbers(lines);
  for (const [index, line] of lines.entries()) {
    const child = line.agent !== undefined && line.agent !== 'main' ? { agent: line.agent } : null;
    if (isAnnotation(line, 'text')) {
      history.append({ kind: 'text', text: line.text, ...child }, line.ts);
      continue;
    }
    if (isAnnotation(line, 'task_start') && child) {
      history.append({ kind: 'agent_prompt', text: line.prompt, ...child } as RecordBody, line.ts);
      continue;
    }
    if (isAnnotation(line, 'task_start')) {
      const task = numbers.get(index);
      if (task) history.append(promptRecord(line.session_id, line.prompt, task), line.ts);
      continue;
    }
    if (isAnnotation(line, 'rewind') || isAnnotation(line, 'fork')) {
      const { v: _v, seq: _seq, ts, session_id: _id, event, ...fields } = line;
      history.append({ kind: event, ...fields } as RecordBody, ts);
      continue;
    }
    const event = eventOf(line);
    if (event) history.append(recordOf(event, limits), line.ts);
  }
}
