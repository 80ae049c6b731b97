import { describe, expect, it } from 'vitest';
import { fairTurn, yieldTurn } from '../../src/system/fair-turns.js';

/** Keeps the thread busy for `ms`, as a task's synchronous work with a model answer does. */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('fairTurn (many tasks on one thread)', () => {
  it('lets one task alone go on at once, without waiting for the loop', async () => {
    await yieldTurn();
    expect(fairTurn()).toBeNull();
    busy(2);
    expect(fairTurn()).toBeNull();
  });

  it('gives the event loop a turn while many tasks have work at the same moment, and lets them go on in order', async () => {
    await yieldTurn();
    const seen: string[] = [];
    // A timer due at once: without turns it would wait for all 60 tasks' work (300 ms of it).
    setTimeout(() => seen.push('timer'), 0);
    const task = async (i: number) => {
      const turn = fairTurn();
      if (turn) await turn;
      busy(5);
      seen.push(`task ${i}`);
    };
    await Promise.all(Array.from({ length: 60 }, (_, i) => task(i)));
    const timerAt = seen.indexOf('timer');
    expect(timerAt).toBeGreaterThan(0);
    expect(timerAt).toBeLessThan(seen.length - 1);
    expect(seen.filter((s) => s !== 'timer')).toEqual(Array.from({ length: 60 }, (_, i) => `task ${i}`));
  });

  it('yieldTurn: tasks that yield together go on a slice at a time, with the loop running between', async () => {
    const seen: string[] = [];
    const task = async (i: number) => {
      await yieldTurn();
      busy(5);
      seen.push(`task ${i}`);
    };
    const all = Promise.all(Array.from({ length: 60 }, (_, i) => task(i)));
    setTimeout(() => seen.push('timer'), 0);
    await all;
    const timerAt = seen.indexOf('timer');
    expect(timerAt).toBeGreaterThan(0);
    expect(timerAt).toBeLessThan(seen.length - 1);
  });
});
