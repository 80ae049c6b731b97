import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Message, PermissionDecision, ToolCall } from '../../machines/types.js';
import type { AgentEvent, QueryResult, TraceLine } from '../../src/engine/events.js';
import { openSessionWriter } from '../../src/sessions/session-writer.js';
import { query, type QueryOptions } from '../../src/engine/query.js';
import { loadTaskContext } from '../../src/context/task-context.js';
import { resolveHooks } from '../../src/hooks/config.js';
import type { HooksConfig, ResolvedHook } from '../../src/hooks/types.js';
import { createScriptedClient, type ScriptedResponse } from '../../src/model/scripted.js';
import type { PermissionPolicy } from '../../src/permissions/types.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/types.js';

export function tempDir(prefix = 'xagent-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A policy with a fixed answer for everything, or per tool name. */
export function policy(decide: (call: ToolCall) => PermissionDecision, ask?: PermissionPolicy['ask']): PermissionPolicy {
  return {
    decide,
    ask: ask ?? (async () => ({ behavior: 'deny', decidedBy: 'test: nobody to ask' })),
  };
}

export const allowAll = policy(() => ({ behavior: 'allow', decidedBy: 'test: allow all' }));

/** Tools for engine tests: an echo, a slow one that honours its signal, and one that crashes. */
export function testTools(log: { aborted: string[] } = { aborted: [] }): Tool[] {
  return [
    {
      name: 'echo',
      description: 'Echoes its text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      readOnly: true,
      execute: async ({ input }) => ({ content: `echo: ${(input as { text: string }).text}`, isError: false }),
    },
    {
      name: 'slow',
      description: 'Waits until aborted or ms elapse.',
      inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
      readOnly: true,
      execute: ({ input, signal }) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ content: 'slow done', isError: false }), (input as { ms: number }).ms);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            log.aborted.push('slow');
            reject(new Error('aborted'));
          });
        }),
    },
    {
      name: 'crash',
      description: 'Throws.',
      inputSchema: { type: 'object' },
      readOnly: true,
      execute: async () => {
        throw new Error('disk on fire');
      },
    },
  ];
}

export interface Run {
  events: AgentEvent[];
  result: QueryResult;
  states: string[];
  trace: TraceLine[];
  /** Every line of trace.jsonl, states and the rest, in order. */
  log: Array<{ seq: number; event?: string; state?: string } & Record<string, unknown>>;
  transcript: Message[];
  audit: Array<Record<string, unknown>>;
  messages: Message[];
  sessionDir: string;
}

export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
}

/** The engine's options as a test gives them: the context and hooks may be given raw, as the library's caller would. */
export type HarnessOptions = Omit<Partial<QueryOptions>, 'hooks'> & {
  prompt?: string;
  onEvent?: (e: AgentEvent) => void;
  sessionDir?: string;
  /** Replaces the built system prompt. */
  system?: string;
  /** For $XAGENT_HOME/AGENTS.md. */
  home?: string | null;
  hooks?: HooksConfig | readonly ResolvedHook[];
};

/**
 * Freezes a value and everything it holds, as XState v6 does to a context in development: a change
 * in place then throws. Frozen objects are skipped (a context shares what it did not replace).
 * @example deepFreeze(snapshot.context).turn = 2 // TypeError
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}

/**
 * Runs one task with a scripted model and collects everything it produced. The chart's context is
 * deep-frozen at every step, every subagent's too (XState v6's development mode): every engine test also checks that no
 * action changes a snapshot in place.
 */
export async function runTask(responses: ScriptedResponse[], options: HarnessOptions = {}): Promise<Run> {
  const { sessionDir: dir, onEvent, system, hooks, home, ...queryOptions } = options;
  const sessionDir = dir ?? path.join(tempDir(), 'session');
  const sessionId = options.sessionId ?? randomUUID();
  const messages = options.messages ?? [];
  const events: AgentEvent[] = [];
  const generator = query(options.prompt ?? 'do the task', {
    model: createScriptedClient({ responses }),
    tools: new ToolRegistry(testTools()),
    permissions: allowAll,
    workspace: tempDir(),
    ...queryOptions,
    // What src/run prepares for the CLI and the library: the task's context and the resolved hooks.
    context:
      queryOptions.context ??
      (system !== undefined
        ? { system, instructions: [] }
        : loadTaskContext({ workspace: queryOptions.workspace ?? tempDir(), home: home ?? null })),
    ...(hooks ? { hooks: Array.isArray(hooks) ? hooks : resolveHooks(hooks as HooksConfig, 'query()') } : {}),
    sessionId,
    session: openSessionWriter(sessionDir, sessionId),
    messages,
    // Every agent's chart: the subagents' contexts are frozen too.
    onMicrostep: (microstep, agent) => {
      deepFreeze(microstep.context);
      queryOptions.onMicrostep?.(microstep, agent);
    },
  });
  let result: QueryResult | undefined;
  for await (const event of generator) {
    events.push(event);
    onEvent?.(event);
    if (event.type === 'result') result = event;
  }
  if (!result) throw new Error('no result event');
  return {
    events,
    result,
    states: events.flatMap((e) => (e.type === 'state' ? [e.name] : [])),
    trace: readJsonl<TraceLine>(path.join(sessionDir, 'trace.jsonl')).filter((l) => !('event' in l)),
    log: readJsonl(path.join(sessionDir, 'trace.jsonl')),
    transcript: readJsonl<Message & { v?: number }>(path.join(sessionDir, 'transcript.jsonl')).map(({ v: _v, ...message }) => message),
    audit: readJsonl(path.join(sessionDir, 'audit.jsonl')),
    messages,
    sessionDir,
  };
}

/** Every tool_use has exactly one tool_result, in the next user message. */
export function unpairedToolUses(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [(b as { id: string }).id] : []));
    if (ids.length === 0) return;
    const next = messages[i + 1];
    const results = (next?.role === 'user' ? next.content : []).flatMap((b) =>
      b.type === 'tool_result' ? [(b as { tool_use_id: string }).tool_use_id] : [],
    );
    for (const id of ids) {
      const count = results.filter((r) => r === id).length;
      if (count !== 1) problems.push(`${id}: ${count} results`);
    }
  });
  return problems;
}

export function writeJson(file: string, value: unknown): string {
  writeFileSync(file, JSON.stringify(value));
  return file;
}
