import { stateTags } from '../../machines/query-engine.js';
import type { AgentEvent } from '../engine/events.js';
import type { EvidenceRecord } from '../sessions/records.js';
import type { AgentField, EvidenceListener } from '../sessions/session-writer.js';
import type { InspectorHistory } from './history.js';
import type { InspectorLimits, RecordBody } from './records.js';
import { createSanitizer } from './redact.js';
import { resultRecord } from './result-record.js';
import { DeltaRedactor } from './stream-redactor.js';

export interface RunMeta {
  sessionId: string;
  model?: string;
  limits: InspectorLimits;
  workspace?: string;
  prompt?: string;
  /** The prompt's number among the session's user messages (`xagent rewind --list`): the page shows the command that forks before it. */
  message?: number;
  /** Secret values (the API key) that streamed text must not carry to the page, even split across deltas. */
  secrets?: ReadonlyArray<string | undefined>;
}

/** Turns an AgentEvent into the record the page gets; the `state` event keeps its trace fields (`via` included), a subagent's its `agent`. */
export function recordOf(event: AgentEvent, limits: InspectorLimits): RecordBody & { agent?: string } {
  const body = recordBodyOf(event, limits);
  const agent = 'agent' in event ? event.agent : undefined;
  return agent && agent !== 'main' && !('agent' in body) ? { ...body, agent } : body;
}

function recordBodyOf(event: AgentEvent, limits: InspectorLimits): RecordBody {
  switch (event.type) {
    case 'state': {
      const { type: _type, ts: _ts, session_id: _sid, ...fields } = event;
      return { kind: 'state', ...fields };
    }
    case 'text_delta':
      return { kind: 'text', text: event.text };
    case 'thinking_delta':
      return { kind: 'thinking', text: event.thinking };
    case 'tool_start':
      return { kind: 'tool_start', call: event.call };
    case 'tool_result':
      return { kind: 'tool_result', call: event.call, result: event.result };
    case 'usage':
      return { kind: 'usage', usage: event.usage, total: event.total };
    case 'retry': {
      const { type: _type, ...fields } = event;
      return { kind: 'retry', ...fields };
    }
    case 'hook': {
      const { type: _type, ...fields } = event;
      return { kind: 'hook', ...fields };
    }
    case 'turn_end':
      return { kind: 'turn_end', reason: event.reason };
    case 'compact': {
      const { type: _type, ...fields } = event;
      return { kind: 'compact', ...fields };
    }
    case 'result':
      return resultRecord(event, limits);
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The exact command that forks `sessionId` before user message `n` (the page shows it, read-only). */
export const forkCommand = (sessionId: string, n: number) => `xagent fork ${sessionId} --to ${n}`;

/** query()'s `observe` for one task, and the listener that reads its evidence log (`onEvidence`). */
export type LiveFeed = ((event: AgentEvent) => void) & { evidence: EvidenceListener };

/**
 * What an evidence line's page record leaves out: the format version, the session id (the meta
 * record has it), the agent (put back below unless it is the top level's `main`), and the two that
 * would repeat the record's own `kind` and `name` (an event line's `event`, a state line's
 * `state`). The events and the replay leave them out too; a sixth less to keep and to send.
 */
const LEFT_OUT = new Set(['v', 'session_id', 'agent', 'event', 'state']);

/**
 * The page record of an evidence line: `head` (the page's kind, and a state's name and tags), then
 * a fresh copy of the line's other fields, made in one pass: the log's record stays as it is.
 */
function pageRecord(record: EvidenceRecord, head: Record<string, unknown>): RecordBody {
  const fields = record as unknown as Record<string, unknown>;
  for (const key in fields) if (!LEFT_OUT.has(key)) head[key] = fields[key];
  const agent = (record as EvidenceRecord & AgentField).agent;
  if (agent !== undefined && agent !== 'main') head.agent = agent;
  return head as RecordBody;
}

/** The evidence lines the page shows as they are; the others are events (result) or streamed already (text). */
function pageBody(record: EvidenceRecord): RecordBody | null {
  // A line written before state lines carried tags gets its state's tags from the chart.
  if (!('event' in record)) return pageRecord(record, { kind: 'state', name: record.state, tags: record.tags ?? stateTags(record.state) });
  // A subagent's deltas never reach the page (they would mix into the main agent's text): its prompt and whole turns do.
  const child = record.agent !== undefined && record.agent !== 'main';
  if (child && record.event === 'task_start') return { kind: 'agent_prompt', text: record.prompt, agent: record.agent } as RecordBody;
  if (child && record.event === 'text') return { kind: 'text', text: record.text, agent: record.agent } as RecordBody;
  if (record.event === 'task_start' || record.event === 'text' || record.event === 'result') return null;
  return pageRecord(record, { kind: record.event });
}

/**
 * Feeds one live task into `history`, starting with a `meta` record. Pass the returned function to
 * query()'s `observe`, and its `evidence` to `onEvidence`: the page then gets each evidence line as
 * the session's log stamped it (the record object; serialized when a batch is sent), and from
 * `observe` only the streamed deltas and the result. With `observe` alone it reads the events.
 * @example const feed = liveFeed(history, { sessionId, limits }); query(prompt, { ...options, observe: feed, onEvidence: feed.evidence })
 */
export function liveFeed(history: InspectorHistory, meta: RunMeta): LiveFeed {
  history.append({
    kind: 'meta',
    mode: 'live',
    session_id: meta.sessionId,
    limits: meta.limits,
    ...(meta.model ? { model: meta.model } : {}),
    ...(meta.workspace ? { workspace: meta.workspace } : {}),
    ...(meta.prompt ? { prompt: meta.prompt } : {}),
  });
  if (meta.message !== undefined && meta.prompt !== undefined) {
    history.append({ kind: 'prompt', n: meta.message, text: meta.prompt, fork_command: forkCommand(meta.sessionId, meta.message) });
  }
  // Text and thinking are each redacted as one stream: a key split across deltas must not reach the page in pieces.
  const stream = new DeltaRedactor(createSanitizer({ secrets: meta.secrets }).text, meta.secrets);
  const append = (parts: Array<{ channel: 'text' | 'thinking'; text: string }>) => {
    for (const part of parts) history.append({ kind: part.channel, text: part.text });
  };
  // Set by the first evidence line: from then on the log, not the events, carries the evidence.
  let fromLog = false;
  const feed = ((event: AgentEvent) => {
    if (event.type === 'text_delta' || event.type === 'thinking_delta') {
      append(event.type === 'text_delta' ? stream.push('text', event.text) : stream.push('thinking', event.thinking));
      return;
    }
    if (fromLog && event.type !== 'result') return;
    append(stream.flush());
    history.append(recordOf(event, meta.limits), event.type === 'state' ? event.ts : undefined);
  }) as LiveFeed;
  feed.evidence = (record) => {
    fromLog = true;
    const body = pageBody(record);
    if (!body) return;
    append(stream.flush());
    // The body is a fresh copy of the log's record: it becomes the page's record (the log's stays as it is).
    history.appendOwn(body, record.ts);
  };
  return feed;
}
