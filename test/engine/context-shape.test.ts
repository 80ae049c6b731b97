import { describe, expect, it } from 'vitest';
import { initialContext } from '../../machines/engine-context.js';
import { INPUT } from '../../src/paths/engine-model.js';

describe('the engine context', () => {
  // Regression: adding the hooks' fields one by one took the context to 25 fields, and every
  // round of a task without hooks got ~20 % slower (XState's assign copies the context with
  // Object.assign, which V8 does ~15x slower for objects of 20 properties or more).
  it('has at most 19 top-level fields, so copying it per assign stays on V8 fast path', () => {
    expect(Object.keys(initialContext(INPUT)).length).toBeLessThanOrEqual(19);
  });
});
