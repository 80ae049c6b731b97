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
      // Set once the tasks run (set before, on a loaded machine it could be due before their first turn).
      if (i === 0) setTimeout(() => seen.push('timer'), 0);
      busy(5);
      seen.push(`task ${i}`);
    };
    await Promise.all(Array.from({ length: 60 }, (_, i) => task(i)));
    const timerAt = seen.indexOf('timer');
    expect(timerAt).toBeGreaterThan(0);
    expect(timerAt).toBeLessThan(seen.length - 1);
  });

  it('releases no more tasks in a turn than fit in it when their work runs microtasks after the turn is given (regression: 10,000 setups, stalls of 2-5 s)', async () => {
    await yieldTurn();
    // The slice is used up: every task below waits for a turn.
    fairTurn();
    busy(25);
    const seen: string[] = [];
    let done = false;
    const tick = () => {
      seen.push('timer');
      if (!done) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const task = async (i: number) => {
      const turn = fairTurn();
      if (turn) await turn;
      // The work starts 200 microtasks after the turn, as a task's setup does after awaits of ready promises.
      for (let hop = 0; hop < 200; hop++) await null;
      busy(2);
      seen.push(`task ${i}`);
    };
    await Promise.all(Array.from({ length: 200 }, (_, i) => task(i)));
    done = true;
    // Tasks run between two turns of the loop: a slice of 20 ms holds about 10 of them (all 200 at once before).
    const runs = seen
      .join(',')
      .split('timer')
      .map((run) => run.split(',').filter(Boolean).length);
    expect(runs.length).toBeGreaterThan(10);
    expect(Math.max(...runs)).toBeLessThanOrEqual(20);
  });
});
