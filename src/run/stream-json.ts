import type { AgentEvent } from '../engine/events.js';

/**
 * One event as `--output-format stream-json` prints it and the library yields it: plain JSON,
 * nothing the engine still holds (the library parses the line back into a detached copy).
 */
export type StreamJsonEvent = AgentEvent;

/**
 * The line stream-json writes for an event (without the newline): the one mapping the CLI and
 * the library share, so both give the same shapes.
 * @example streamJsonLine({ type: 'text_delta', text: 'hi' }) // '{"type":"text_delta","text":"hi"}'
 */
export function streamJsonLine(event: AgentEvent): string {
  return JSON.stringify(event);
}

/**
 * The event the library yields: a detached copy with the shape stream-json prints (JSON's rules:
 * fields that are undefined, functions or symbols left out, `undefined` in an array as null, a
 * Date or anything with `toJSON` as what it gives, NaN and Infinity as null), so a caller that keeps
 * or changes it cannot reach into the engine's state. Copied directly: a JSON round trip per event
 * was a string built and parsed again for every delta of a thousand tasks.
 * @example streamJsonEvent(event).type // 'text_delta'
 */
export function streamJsonEvent(event: AgentEvent): StreamJsonEvent {
  return jsonCopy(event, '') as StreamJsonEvent;
}

/** `JSON.parse(JSON.stringify(value))` without the string, for the values JSON can carry; undefined where JSON leaves a field out. */
export function jsonCopy(value: unknown, key: string): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return jsonCopy((value as { toJSON(key: string): unknown }).toJSON(key), key);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // -0 prints as 0.
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'bigint':
      // As JSON.stringify does: a BigInt has no JSON form.
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const copy = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) copy[i] = jsonCopy(value[i], String(i)) ?? null;
        return copy;
      }
      // A boxed primitive (new String('x')) is its primitive, as in JSON.
      if (value instanceof String || value instanceof Number || value instanceof Boolean) return jsonCopy(value.valueOf(), key);
      const copy: Record<string, unknown> = {};
      for (const field of Object.keys(value)) {
        const item = jsonCopy((value as Record<string, unknown>)[field], field);
        if (item !== undefined) copy[field] = item;
      }
      return copy;
    }
    default:
      // undefined, functions and symbols: no JSON form.
      return undefined;
  }
}
