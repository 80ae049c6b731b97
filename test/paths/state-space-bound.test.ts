import { describe, expect, it } from 'vitest';
import { measures, stateSpaceBound, UnboundedStateSpace } from '../../src/paths/state-space-bound.js';

describe('the bound on path generation', () => {
  it('measures every number and array length of a routing view by its path', () => {
    expect([...measures({ turn: 2, queue: ['a', 'b'], current: { id: 'x', tries: 1 }, stop: null })]).toEqual([
      ['turn', 2],
      ['queue.length', 2],
      ['current.tries', 1],
    ]);
  });

  it('lets a traversal through up to its bound, then names the fields that kept growing and leaves out those that settled', () => {
    const bound = stateSpaceBound(100);
    for (let k = 0; k < 100; k++) bound.see({ turn: k, toolCalls: Math.min(k, 3), queue: [] });
    expect(() => bound.see({ turn: 100, toolCalls: 3, queue: [] })).toThrow(UnboundedStateSpace);
    const again = stateSpaceBound(10);
    for (let k = 0; k < 10; k++) again.see({ turn: k, toolCalls: 1 });
    expect(() => again.see({ turn: 10, toolCalls: 1 })).toThrow(
      /passed 10 states without running out: turn \(4 → 10\) kept growing\. A bound is missing/,
    );
  });
});
