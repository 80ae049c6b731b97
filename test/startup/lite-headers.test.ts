import { describe, expect, it } from 'vitest';
import { LiteHeaders } from '../../src/startup/lite-headers.js';

type Op = ['append' | 'set', string, string] | ['delete', string];

/** Runs the same operations on undici's Headers (the oracle) and on LiteHeaders; both must read alike. */
function both(init: HeadersInit | undefined, ops: Op[]): { real: Headers; lite: LiteHeaders } {
  const real = new Headers(init);
  const lite = new LiteHeaders(init);
  for (const op of ops) {
    if (op[0] === 'delete') {
      real.delete(op[1]);
      lite.delete(op[1]);
    } else {
      real[op[0]](op[1], op[2]);
      lite[op[0]](op[1], op[2]);
    }
  }
  return { real, lite };
}

const read = (h: Headers | LiteHeaders, names: string[]) => ({
  entries: [...h.entries()],
  keys: [...h.keys()],
  values: [...h.values()],
  get: names.map((n) => h.get(n)),
  has: names.map((n) => h.has(n)),
  cookies: h.getSetCookie(),
});

describe('LiteHeaders reads like the Fetch standard Headers (undici as the oracle)', () => {
  const cases: Array<[string, HeadersInit | undefined, Op[]]> = [
    ['a record, names in any case', { Accept: 'a', 'X-Stainless-Retry-Count': '0', 'content-type': 'application/json' }, []],
    [
      'pairs with a repeated name',
      [
        ['X-A', '1'],
        ['x-a', '2'],
        ['B', '3'],
      ],
      [],
    ],
    [
      'append combines, set replaces, delete removes',
      undefined,
      [
        ['append', 'Anthropic-Beta', 'one'],
        ['append', 'anthropic-beta', 'two'],
        ['set', 'X-K', 'v1'],
        ['set', 'x-k', 'v2'],
        ['append', 'gone', 'x'],
        ['delete', 'GONE'],
      ],
    ],
    [
      'values are trimmed of spaces and tabs',
      undefined,
      [
        ['append', 'x-pad', ' \t padded \t'],
        ['set', 'x-inner', 'a  b'],
      ],
    ],
    [
      'set-cookie lines stay apart and sort among the names',
      undefined,
      [
        ['append', 'Set-Cookie', 'a=1'],
        ['append', 'set-cookie', 'b=2'],
        ['append', 'z-last', 'z'],
        ['append', 'a-first', 'a'],
      ],
    ],
    [
      'set and delete of set-cookie',
      undefined,
      [
        ['append', 'set-cookie', 'a=1'],
        ['set', 'set-cookie', 'c=3'],
        ['append', 'x', '1'],
        ['delete', 'x'],
      ],
    ],
  ];
  for (const [name, init, ops] of cases) {
    it(name, () => {
      const { real, lite } = both(init, ops);
      const names = ['accept', 'X-A', 'x-a', 'anthropic-beta', 'x-k', 'gone', 'x-pad', 'x-inner', 'set-cookie', 'missing', 'b', 'x'];
      expect(read(lite, names)).toEqual(read(real, names));
      const seen: string[] = [];
      lite.forEach((value, key, parent) => {
        expect(parent).toBe(lite);
        seen.push(`${key}=${value}`);
      });
      expect(seen).toEqual([...real.entries()].map(([k, v]) => `${k}=${v}`));
    });
  }

  it('is built from another Headers of either kind, and `instanceof` holds for both', () => {
    const real = new Headers({ 'x-real': '1' });
    const lite = new LiteHeaders(real);
    expect(new LiteHeaders(lite).get('X-Real')).toBe('1');
    expect(real instanceof LiteHeaders).toBe(true);
    expect(lite instanceof LiteHeaders).toBe(true);
    expect({ 'x-real': '1' } instanceof LiteHeaders).toBe(false);
    expect(Object.prototype.toString.call(lite)).toBe('[object Headers]');
  });

  it('hands node:http its headers as a record, lower-case, set-cookie lines as an array', () => {
    const h = new LiteHeaders([
      ['X-A', '1'],
      ['x-a', '2'],
      ['Set-Cookie', 'a=1'],
      ['set-cookie', 'b=2'],
    ]);
    expect(h.toOutgoing()).toEqual({ 'x-a': '1, 2', 'set-cookie': ['a=1', 'b=2'] });
    expect(LiteHeaders.isLite(h)).toBe(true);
    expect(LiteHeaders.isLite(new Headers())).toBe(false);
  });

  it('rejects invalid names and values with a TypeError, as Headers does', () => {
    for (const [name, value] of [
      ['bad name', 'v'],
      ['x-ok', 'line\nbreak'],
      ['x-ok', 'carriage\rreturn'],
      ['x-ok', 'nul\0'],
      ['', 'v'],
    ]) {
      expect(() => new Headers().append(name!, value!)).toThrow(TypeError);
      expect(() => new LiteHeaders().append(name!, value!)).toThrow(TypeError);
    }
    expect(() => new LiteHeaders([['only-a-name']] as unknown as [string, string][])).toThrow(TypeError);
  });
});
