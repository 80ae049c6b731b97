import { describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import type { BuildRequestArgs } from '../../src/model/request.js';
import { buildRequestBody } from '../support/reference-request.js';
import { RequestEncoder } from '../../src/model/request-encoder.js';
import type { ToolSpec } from '../../src/model/types.js';

type Block = Message['content'][number];

/** A small deterministic generator (mulberry32), so a failure names a seed that reproduces it. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every kind of block normalizeMessages treats specially: empty text, non-string results, thinking. */
function block(next: () => number, n: number): Block {
  const pick = Math.floor(next() * 9);
  switch (pick) {
    case 0:
      return { type: 'text', text: '' };
    case 1:
      return { type: 'text', text: `text ${n} "quoted" \u00e9\n` };
    case 2:
      return { type: 'tool_use', id: `toolu_${n}`, name: 'read_file', input: { path: `f${n}.txt`, nested: { a: [1, 2] } } };
    case 3:
      return { type: 'tool_result', tool_use_id: `toolu_${n}`, content: `result ${n}` };
    case 4:
      return { type: 'tool_result', tool_use_id: `toolu_${n}`, content: '', is_error: true };
    case 5:
      return { type: 'tool_result', tool_use_id: `toolu_${n}`, content: [{ type: 'text', text: 'part' }, { type: 'image' }] } as Block;
    case 6:
      return { type: 'thinking', thinking: `thought ${n}`, signature: `sig${n}` } as Block;
    case 7:
      return { type: 'redacted_thinking', data: `data${n}` } as Block;
    default:
      return { type: 'tool_result', tool_use_id: `toolu_${n}`, content: { odd: n } } as Block;
  }
}

function conversation(seed: number, length: number): Message[] {
  const next = random(seed);
  const messages: Message[] = [];
  for (let i = 0; i < length; i++) {
    const role = next() < 0.6 ? (i % 2 === 0 ? 'user' : 'assistant') : next() < 0.5 ? 'user' : 'assistant';
    const count = Math.floor(next() * 4);
    messages.push({ role, content: Array.from({ length: count }, (_, j) => block(next, i * 10 + j)) });
  }
  return messages;
}

const tools: ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Reads a file',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  { name: 'odd', description: 'A schema without a type', input_schema: { properties: {} } as ToolSpec['input_schema'] },
];

const variants: Array<Omit<BuildRequestArgs, 'messages'>> = [
  { model: 'claude-x', maxTokens: 8192, system: 'You are xagent.', tools },
  { model: 'claude-x', maxTokens: 8192, system: 'You are xagent.', tools, cache: false },
  { model: 'claude-x', maxTokens: 1024, system: '  ', tools: [], thinkingBudget: 2048 },
  { model: 'claude-"quoted"', maxTokens: 100, system: '', tools, cache: true, thinkingBudget: 0 },
];

describe('RequestEncoder', () => {
  it('writes exactly JSON.stringify(buildRequestBody(...)) for generated conversations, every round of a growing one', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const all = conversation(seed, 40);
      for (const variant of variants) {
        const encoder = new RequestEncoder();
        // Round by round, as a session grows: cached blocks must not keep a breakpoint they had when newest.
        for (let length = 0; length <= all.length; length += 1 + (seed % 4)) {
          const args = { ...variant, messages: all.slice(0, length) };
          const expected = JSON.stringify(buildRequestBody(args));
          expect(encoder.encode(args).toString('utf8'), `seed ${seed}, length ${length}, ${JSON.stringify(variant).slice(0, 60)}`).toBe(
            expected,
          );
        }
      }
    }
  });

  it('stays exact when the conversation is replaced or rewritten between rounds (compaction, /clear, a resumed session)', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const first = conversation(seed, 30);
      const other = conversation(seed + 1000, 30);
      // A compaction keeps the newest messages after a summary: same objects, new head.
      const compacted = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'summary' }] }, ...first.slice(20)];
      const encoder = new RequestEncoder();
      for (const messages of [
        first.slice(0, 25),
        other.slice(0, 10),
        first,
        compacted,
        [...compacted, ...other.slice(0, 3)],
        first.slice(0, 5),
        [],
      ]) {
        const args = { ...variants[seed % variants.length]!, messages };
        expect(encoder.encode(args).toString('utf8'), `seed ${seed}`).toBe(JSON.stringify(buildRequestBody(args)));
      }
    }
  });

  it('leaves the messages as they were', () => {
    const messages = conversation(7, 30);
    const before = JSON.stringify(messages);
    new RequestEncoder().encode({ ...variants[0]!, messages });
    expect(JSON.stringify(messages)).toBe(before);
  });

  it('serialises each block once, however many rounds resend it', () => {
    const messages = conversation(3, 20);
    let stringified = 0;
    const counted = messages.map((m) => ({
      role: m.role,
      content: m.content.map((b) => ({
        ...b,
        toJSON() {
          stringified++;
          const { toJSON: _, ...rest } = this as Block & { toJSON?: unknown };
          return rest;
        },
      })),
    })) as Message[];
    const encoder = new RequestEncoder();
    for (let round = 0; round < 5; round++) encoder.encode({ ...variants[1]!, messages: counted });
    const blocks = counted.reduce((n, m) => n + m.content.length, 0);
    expect(stringified).toBeLessThanOrEqual(blocks);
  });

  /** A conversation whose bodies pass 64 kB within a few rounds: from there on they are written in place. */
  const long = (seed: number, length: number): Message[] =>
    conversation(seed, length).map((m, i) => ({
      ...m,
      content: [...m.content, { type: 'text', text: `${i} ${'long text '.repeat(1200)}` }],
    }));

  it('writes each round into the same memory once the last body is returned, exact every round', () => {
    const all = long(11, 60);
    const encoder = new RequestEncoder();
    const buffers = new Set<ArrayBuffer>();
    for (let length = 1; length <= all.length; length++) {
      const args = { ...variants[0]!, messages: all.slice(0, length) };
      const body = encoder.encode(args);
      expect(body.toString('utf8'), `length ${length}`).toBe(JSON.stringify(buildRequestBody(args)));
      if (body.length >= 64 * 1024) buffers.add(body.buffer as ArrayBuffer);
      encoder.returned(body);
    }
    // A new buffer only when the conversation outgrows it (doubling), not one a round.
    expect(buffers.size).toBeGreaterThan(0);
    expect(buffers.size).toBeLessThanOrEqual(5);
  });

  it('never writes into a body that was not returned: its request may still be sending it', () => {
    const all = long(12, 40);
    const encoder = new RequestEncoder();
    const kept: Array<{ body: Buffer; text: string }> = [];
    for (let length = 1; length <= all.length; length++) {
      const args = { ...variants[length % 2]!, messages: all.slice(0, length) };
      const body = encoder.encode(args);
      const text = JSON.stringify(buildRequestBody(args));
      expect(body.toString('utf8')).toBe(text);
      kept.push({ body, text });
      // Every third body comes back (its answer was read); the others stay lent, as after a failed attempt.
      if (length % 3 === 0) encoder.returned(body);
    }
    for (const { body, text } of kept.filter((_, i) => (i + 1) % 3 !== 0)) expect(body.toString('utf8')).toBe(text);
  });

  it('makes a small body anew each round, so tasks keep none between rounds', () => {
    const all = conversation(5, 10).map((m) => ({ ...m, content: [...m.content, { type: 'text' as const, text: 'x'.repeat(1000) }] }));
    const encoder = new RequestEncoder();
    const first = encoder.encode({ ...variants[0]!, messages: all.slice(0, 9) });
    encoder.returned(first);
    const second = encoder.encode({ ...variants[0]!, messages: all });
    expect(first.length).toBeGreaterThan(4096);
    expect(second.length).toBeLessThan(64 * 1024);
    expect(second.buffer).not.toBe(first.buffer);
  });
});
