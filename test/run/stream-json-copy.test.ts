import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/engine/events.js';
import { jsonCopy, streamJsonEvent, streamJsonLine } from '../../src/run/stream-json.js';

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('streamJsonEvent (the library’s copy of an event)', () => {
  it('gives what the stream-json line parses to, for every kind of value JSON carries or leaves out', () => {
    const when = new Date('2026-01-02T03:04:05.678Z');
    const values: unknown[] = [
      { type: 'text_delta', text: 'hi' },
      { a: undefined, b: () => 1, c: Symbol('s'), d: null, e: [1, undefined, () => 2, Symbol('t')], f: when },
      { n: Number.NaN, i: Number.POSITIVE_INFINITY, m: -0, big: 1e300, nested: { deep: [{ x: [[]] }, {}] } },
      { boxed: [new String('s'), new Number(3), new Boolean(false)], map: new Map([[1, 2]]), set: new Set([1]) },
      { custom: { toJSON: (key: string) => ({ from: key }) }, list: [{ toJSON: () => undefined }] },
      [1, 'two', null, true, { three: 3 }],
      { 'a key': 'é 😀 \u2028', empty: '' },
    ];
    for (const value of values) expect(jsonCopy(value, '')).toStrictEqual(roundTrip(value));
    const event = { type: 'tool_start', call: { id: 'toolu_1', name: 'read_file', input: { path: 'a' } }, extra: undefined };
    expect(streamJsonEvent(event as unknown as AgentEvent)).toStrictEqual(JSON.parse(streamJsonLine(event as unknown as AgentEvent)));
  });

  it('is a copy: changing what the library yields does not change the engine’s event', () => {
    const event = { type: 'tool_start', call: { id: 'toolu_1', name: 'read_file', input: { path: 'a' } } } as unknown as AgentEvent;
    const copy = streamJsonEvent(event) as unknown as { call: { input: { path: string } } };
    copy.call.input.path = 'changed';
    expect((event as unknown as { call: { input: { path: string } } }).call.input.path).toBe('a');
  });

  it('fails on a BigInt, as the stream-json line does', () => {
    expect(() => jsonCopy({ n: 1n }, '')).toThrow(TypeError);
    expect(() => JSON.stringify({ n: 1n })).toThrow(TypeError);
  });
});
