import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FakeResponse } from '../support/fake-anthropic.js';

/** The prompt of task `id`; the fake reads the id back from the request. */
export const promptOf = (id: string | number) => `Batch task ${id}: list the folder, then say done.`;

/** The task id a request belongs to, from its first user message. */
export function taskOfRequest(body: unknown): string | null {
  const first = (body as { messages?: unknown[] }).messages?.[0];
  return /Batch task (\S+):/.exec(JSON.stringify(first ?? ''))?.[1] ?? null;
}

/** A model that answers each task in two rounds: a list_dir call, then `done <id>` once the result is there. */
export function twoRounds(delayMs: number) {
  return (body: Record<string, unknown>): FakeResponse => {
    const id = taskOfRequest(body);
    const messages = body.messages as Array<{ role: string; content: unknown }>;
    const hasResult = JSON.stringify(messages.at(-1)?.content ?? '').includes('tool_result');
    if (!hasResult) return { content: [{ type: 'tool_use', name: 'list_dir', input: {} }], delay_ms: delayMs };
    return { text: `done ${id}`, delay_ms: delayMs };
  };
}

export function writeTasks(dir: string, count: number): string {
  const file = path.join(dir, 'tasks.jsonl');
  const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ id: `t${i + 1}`, prompt: promptOf(`t${i + 1}`) }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The result lines of a results file (whole lines only). */
export function resultLines(file: string): Array<Record<string, unknown>> {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
